import { type ErrorCatalogEntry, SharpsharpError } from "../../errors/index.js";

export const agentToolErrorCatalog = {
  invalidTools: {
    code: "SS_AGENT_INVALID_TOOLS",
    meaning:
      "A tenant's `tools` setting has problems (a bad name, URL or parameters schema, a reserved header, an unset environment variable); every problem is listed and the worker does not start.",
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
