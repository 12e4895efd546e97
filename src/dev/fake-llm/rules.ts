import { z } from "zod";

const toolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "must be a tool name (letters, digits, _ and -)");

const whenSchema = z
  .strictObject({
    lastUser: z.string().optional(),
    toolOffered: toolName.optional(),
    afterTool: toolName.optional(),
    always: z.literal(true).optional(),
  })
  .refine((when) => Object.keys(when).length > 0, "needs at least one condition (or always: true)");

const replySchema = z.union(
  [
    z.strictObject({ content: z.string() }),
    z.strictObject({
      toolCalls: z
        .array(z.strictObject({ name: toolName, arguments: z.record(z.string(), z.unknown()).default({}) }))
        .min(1),
    }),
  ],
  { error: 'a reply is { "content": string } or { "toolCalls": [{ "name", "arguments" }, …] }' },
);

const ruleSchema = z.strictObject({ when: whenSchema, reply: replySchema });

const rulesSchema = z.array(ruleSchema, { error: 'rules are a JSON list, or { "rules": [...] }' });

/** `rules[2].when.lastUser`, from a zod issue path. */
function place(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (at, key) => (typeof key === "number" ? `${at}[${key}]` : `${at}.${String(key)}`),
    "rules",
  );
}

/**
 * One scripted behaviour of the fake LLM. Conditions in `when` must all
 * hold. Without `afterTool` (or `always`) a rule answers the customer, so
 * it applies only when the last message is not a tool result: a rule that
 * calls a tool cannot then loop on its own result.
 */
export interface FakeLlmRule {
  readonly when: {
    /** Regex source, case-insensitive, searched in the last user message. */
    readonly lastUser?: string;
    /** The request offers a tool of this name. */
    readonly toolOffered?: string;
    /** The last message is the result of a call of this tool. */
    readonly afterTool?: string;
    readonly always?: true;
  };
  /** Content may hold `{{lastUser}}` and `{{toolResult}}`; so may string values in tool arguments. */
  readonly reply:
    | { readonly content: string }
    | {
        readonly toolCalls: readonly {
          readonly name: string;
          readonly arguments?: Record<string, unknown>;
        }[];
      };
}

/** A rule checked and with its regex built. */
export interface CompiledRule {
  readonly index: number;
  /** The rule as given (arguments defaulted to `{}`). */
  readonly source: FakeLlmRule;
  readonly lastUser?: RegExp;
  readonly toolOffered?: string;
  readonly afterTool?: string;
  readonly always: boolean;
  readonly reply:
    | { readonly kind: "content"; readonly content: string }
    | {
        readonly kind: "toolCalls";
        readonly toolCalls: readonly { readonly name: string; readonly arguments: Record<string, unknown> }[];
      };
}

/** Rules that cannot be used; `problems` names each, with its place. */
export class FakeLlmRulesError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid fake LLM rules:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
    this.name = "FakeLlmRulesError";
  }
}

/** Checks and compiles rules (an array, or `{ rules: [...] }`); throws FakeLlmRulesError listing every problem. */
export function compileRules(input: unknown): CompiledRule[] {
  // A rules file may wrap its list as { "rules": [...] }.
  const list =
    typeof input === "object" && input !== null && !Array.isArray(input) && "rules" in input
      ? input.rules
      : input;
  const parsed = rulesSchema.safeParse(list);
  if (!parsed.success) {
    throw new FakeLlmRulesError(parsed.error.issues.map((issue) => `${place(issue.path)}: ${issue.message}`));
  }
  const problems: string[] = [];
  const compiled = parsed.data.map((rule, index): CompiledRule => {
    let lastUser: RegExp | undefined;
    if (rule.when.lastUser !== undefined) {
      try {
        lastUser = new RegExp(rule.when.lastUser, "i");
      } catch (error) {
        problems.push(
          `rules[${index}].when.lastUser is not a valid regular expression (${(error as Error).message})`,
        );
      }
    }
    return {
      index,
      source: rule,
      ...(lastUser === undefined ? {} : { lastUser }),
      ...(rule.when.toolOffered === undefined ? {} : { toolOffered: rule.when.toolOffered }),
      ...(rule.when.afterTool === undefined ? {} : { afterTool: rule.when.afterTool }),
      always: rule.when.always === true,
      reply:
        "content" in rule.reply
          ? { kind: "content", content: rule.reply.content }
          : { kind: "toolCalls", toolCalls: rule.reply.toolCalls },
    };
  });
  if (problems.length > 0) throw new FakeLlmRulesError(problems);
  return compiled;
}
