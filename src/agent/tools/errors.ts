import { type ErrorCatalogEntry, SharpsharpError } from "../../errors/index.js";
import { describeRange, type RefusedRange } from "./egress-policy.js";

export const agentToolErrorCatalog = {
  invalidTools: {
    code: "SS_AGENT_INVALID_TOOLS",
    meaning:
      "A tenant's `tools` setting has problems (a bad name, URL or parameters schema, a reserved header, an unset environment variable); every problem is listed and the worker does not start.",
  },
  egressRefused: {
    code: "SS_AGENT_EGRESS_REFUSED",
    meaning:
      "A tool call was not made: its host is, or resolves to, a loopback, link-local, private, unspecified or cloud metadata address the tool's `allowNetworks` does not cover. The model gets a tool error.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** A tenant's tools cannot be used; lists every problem `parseTenantTools` found. */
export class ToolConfigError extends SharpsharpError {
  readonly problems: readonly string[];

  constructor(tenantId: string, problems: readonly string[]) {
    super(
      agentToolErrorCatalog.invalidTools.code,
      `tenant "${tenantId}": invalid tools: ${problems.join("; ")}`,
    );
    this.problems = problems;
  }
}

/** The connection a tool call needs was refused by its egress policy, after DNS, before any byte was sent. */
export class EgressRefusedError extends SharpsharpError {
  readonly address: string;
  readonly range: RefusedRange;

  constructor(host: string, address: string, range: RefusedRange) {
    super(
      agentToolErrorCatalog.egressRefused.code,
      `${host === address ? address : `${host} resolves to ${address}, which`} is ${describeRange(range)} this tool may not reach`,
    );
    this.address = address;
    this.range = range;
  }
}
