import { z } from "zod";
import type { TenantConfig } from "../config/index.js";
import { SharpsharpError } from "../errors/index.js";
import { agentErrorCatalog } from "./errors.js";
import type { KnowledgeEntry } from "./knowledge.js";

const textReply = z.looseObject({ text: z.string().min(1).max(4096) });

const agentSettingsSchema = z.looseObject({
  persona: z.string().min(1).max(8000).optional(),
  /** Extra rules for the agent (refund policy, what never to promise…). */
  policies: z.string().min(1).max(8000).optional(),
  holding: textReply.optional(),
  fallback: textReply.optional(),
  budgetExhausted: textReply.optional(),
  knowledge: z
    .array(
      z.object({
        id: z.string().min(1).max(100),
        q: z.string().min(1).max(1000),
        a: z.string().min(1).max(4000),
      }),
    )
    .optional(),
  llm: z
    .looseObject({
      model: z.string().min(1).optional(),
      /** US dollars per million prompt / completion tokens, for the cost figures. */
      promptCostPerMillion: z.number().nonnegative().optional(),
      completionCostPerMillion: z.number().nonnegative().optional(),
    })
    .optional(),
  limits: z
    .looseObject({
      agentConcurrency: z.number().int().min(1).max(10_000).optional(),
      dailyTokenBudget: z.number().int().min(1).optional(),
    })
    .optional(),
  agent: z
    .looseObject({
      /** Messages from the conversation's history given to the model. */
      historyMessages: z.number().int().min(0).max(50).optional(),
      /** How long a Confirm/Cancel question stays open, ms. */
      confirmTtlMs: z
        .number()
        .int()
        .min(10_000)
        .max(24 * 3_600_000)
        .optional(),
    })
    .optional(),
});

/** A tenant's agent settings, with defaults applied. */
export interface AgentSettings {
  readonly persona: string;
  readonly policies: string | undefined;
  readonly holdingText: string;
  readonly fallbackText: string;
  readonly budgetExhaustedText: string;
  readonly knowledge: readonly KnowledgeEntry[];
  readonly model: string | undefined;
  readonly promptCostPerMillion: number;
  readonly completionCostPerMillion: number;
  readonly agentConcurrency: number;
  readonly dailyTokenBudget: number;
  readonly historyMessages: number;
  readonly confirmTtlMs: number;
}

export const AGENT_DEFAULTS = {
  persona: "You are the customer-support assistant of this business on WhatsApp. Be brief, warm and exact.",
  holdingText: "I dey check am, I go get back to you shortly. 🙏",
  fallbackText:
    "Thank you for your message! Abeg give us small time, somebody from our team go get back to you soon.",
  budgetExhaustedText:
    "Thank you for your message! Our assistant is resting for today; somebody from our team go reply you soon.",
  agentConcurrency: 50,
  dailyTokenBudget: 2_000_000,
  historyMessages: 12,
  confirmTtlMs: 10 * 60_000,
} as const;

/** A tenant's agent settings cannot be used; says which tenant and field. */
export class AgentSettingsError extends SharpsharpError {
  constructor(
    readonly tenantId: string,
    readonly problems: readonly string[],
  ) {
    super(
      agentErrorCatalog.invalidSettings.code,
      `tenant "${tenantId}": invalid agent settings: ${problems.join("; ")}`,
    );
  }
}

/** Reads a tenant's agent settings (persona, policies, holding, knowledge, llm, limits), with defaults. */
export function resolveAgentSettings(tenant: TenantConfig): AgentSettings {
  const parsed = agentSettingsSchema.safeParse(tenant.settings);
  if (!parsed.success)
    throw new AgentSettingsError(
      tenant.id,
      parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    );
  const own = parsed.data;
  const ids = new Set<string>();
  const duplicates = (own.knowledge ?? []).filter((entry) => ids.size === ids.add(entry.id).size);
  if (duplicates.length > 0)
    throw new AgentSettingsError(
      tenant.id,
      duplicates.map((entry) => `knowledge: duplicate id "${entry.id}"`),
    );
  return {
    persona: own.persona ?? AGENT_DEFAULTS.persona,
    policies: own.policies,
    holdingText: own.holding?.text ?? AGENT_DEFAULTS.holdingText,
    fallbackText: own.fallback?.text ?? AGENT_DEFAULTS.fallbackText,
    budgetExhaustedText: own.budgetExhausted?.text ?? AGENT_DEFAULTS.budgetExhaustedText,
    knowledge: own.knowledge ?? [],
    model: own.llm?.model,
    promptCostPerMillion: own.llm?.promptCostPerMillion ?? 0,
    completionCostPerMillion: own.llm?.completionCostPerMillion ?? 0,
    agentConcurrency: own.limits?.agentConcurrency ?? AGENT_DEFAULTS.agentConcurrency,
    dailyTokenBudget: own.limits?.dailyTokenBudget ?? AGENT_DEFAULTS.dailyTokenBudget,
    historyMessages: own.agent?.historyMessages ?? AGENT_DEFAULTS.historyMessages,
    confirmTtlMs: own.agent?.confirmTtlMs ?? AGENT_DEFAULTS.confirmTtlMs,
  };
}
