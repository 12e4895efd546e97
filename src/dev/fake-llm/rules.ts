import { z } from "zod";

const toolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "must be a tool name (letters, digits, _ and -)");

const whenSchema = z
  .strictObject({
    lastUser: z.string().optional(),
    toolOffered: toolName.optional(),
    afterTool: toolName.optional(),
    imageSha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/i, "must be a sha256 in hex (64 characters)")
      .transform((hex) => hex.toLowerCase())
      .optional(),
    responseFormat: z.string().min(1).optional(),
    always: z.literal(true).optional(),
  })
  .refine((when) => Object.keys(when).length > 0, "needs at least one condition (or always: true)");

const replySchema = z.union(
  [
    z.strictObject({ content: z.string() }),
    z.strictObject({ json: z.record(z.string(), z.unknown()) }),
    z.strictObject({
      toolCalls: z
        .array(z.strictObject({ name: toolName, arguments: z.record(z.string(), z.unknown()).default({}) }))
        .min(1),
    }),
  ],
  {
    error:
      'a reply is { "content": string }, { "json": {…} } or { "toolCalls": [{ "name", "arguments" }, …] }',
  },
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
    /** The last user message holds an image (a data URL) whose bytes have this sha256, in hex. */
    readonly imageSha256?: string;
    /** The request asks for structured output with a json_schema of this name. */
    readonly responseFormat?: string;
    readonly always?: true;
  };
  /**
   * Content may hold `{{lastUser}}` and `{{toolResult}}`; so may string values in tool arguments.
   * `json` answers that object as the content (structured output), unchanged.
   */
  readonly reply:
    | { readonly content: string }
    | { readonly json: Record<string, unknown> }
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
  readonly imageSha256?: string;
  readonly responseFormat?: string;
  readonly always: boolean;
  readonly reply:
    | { readonly kind: "content"; readonly content: string }
    | { readonly kind: "json"; readonly json: Record<string, unknown> }
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
      ...(rule.when.imageSha256 === undefined ? {} : { imageSha256: rule.when.imageSha256 }),
      ...(rule.when.responseFormat === undefined ? {} : { responseFormat: rule.when.responseFormat }),
      always: rule.when.always === true,
      reply:
        "content" in rule.reply
          ? { kind: "content", content: rule.reply.content }
          : "json" in rule.reply
            ? { kind: "json", json: rule.reply.json }
            : { kind: "toolCalls", toolCalls: rule.reply.toolCalls },
    };
  });
  if (problems.length > 0) throw new FakeLlmRulesError(problems);
  return compiled;
}
