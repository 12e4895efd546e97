import { Counter, type Registry } from "prom-client";
import type { TenantConfig } from "../config/index.js";
import type { Logger } from "../observability/index.js";
import type { GraphApiClient } from "../whatsapp/index.js";
import type { TypingIndicator } from "./ports.js";

/** Outcomes of typing-indicator calls: `shown`, `failed`, `timeout`, `off`. */
export type TypingOutcome = "shown" | "failed" | "timeout" | "off";

/** What the Graph API typing indicator is given. */
export interface GraphTypingIndicatorDeps {
  /** The Graph API client of a tenant (its token); owned by the caller. */
  readonly graphClientFor: (tenantId: string) => GraphApiClient;
  readonly logger: Logger;
  /** Calls by tenant and outcome; optional. */
  readonly counter?: Counter<"tenant" | "outcome">;
}

/** How long a turn waits for the indicator; every field has a default. */
export interface GraphTypingIndicatorOptions {
  /** Longest a turn waits for the Graph call, ms; default 1,000. The call itself may finish later, ignored. */
  readonly timeoutMs?: number;
}

/** Whether a tenant shows the typing indicator: on unless `settings.typingIndicator` is `false`. */
export function typingIndicatorOn(tenant: TenantConfig): boolean {
  return tenant.settings.typingIndicator !== false;
}

/** Registers `ss_typing_indicator_total{tenant,outcome}` on `registry`. */
export function createTypingIndicatorCounter(registry: Registry): Counter<"tenant" | "outcome"> {
  return new Counter({
    name: "ss_typing_indicator_total",
    help: "Mark-as-read with typing indicator calls by outcome",
    labelNames: ["tenant", "outcome"],
    registers: [registry],
  });
}

/**
 * Marks a turn's newest message read and shows the typing indicator with one
 * Graph API call. Never throws and never keeps a turn longer than
 * `timeoutMs`: a failure or a slow answer is logged at warn and counted.
 */
export function createGraphTypingIndicator(
  deps: GraphTypingIndicatorDeps,
  options: GraphTypingIndicatorOptions = {},
): TypingIndicator {
  const timeoutMs = options.timeoutMs ?? 1000;
  const count = (tenant: string, outcome: TypingOutcome) => deps.counter?.inc({ tenant, outcome });

  return {
    async show(tenant, phoneNumberId, wamid) {
      if (!typingIndicatorOn(tenant)) {
        count(tenant.id, "off");
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      });
      const call = Promise.resolve()
        .then(() => deps.graphClientFor(tenant.id).markRead(phoneNumberId, wamid, { typing: true }))
        .then(
          () => "shown" as const,
          (error: unknown) => {
            deps.logger.warn({ err: error, tenant: tenant.id }, "typing indicator failed; turn goes on");
            return "failed" as const;
          },
        );
      const outcome = await Promise.race([call, expired]);
      clearTimeout(timer);
      if (outcome === "timeout") {
        deps.logger.warn({ tenant: tenant.id, timeoutMs }, "typing indicator timed out; turn goes on");
      }
      count(tenant.id, outcome);
    },
  };
}
