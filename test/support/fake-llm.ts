import { createFakeLlm, type FakeLlm, type FakeLlmDeps, type FakeLlmOptions } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";

/** What the fake answers: a completion or OpenAI's error. */
export interface CompletionJson {
  readonly id?: string;
  readonly object?: string;
  readonly created?: number;
  readonly model?: string;
  readonly choices?: readonly {
    readonly index: number;
    readonly message: {
      readonly role: string;
      readonly content: string | null;
      readonly tool_calls?: readonly {
        readonly id: string;
        readonly type: string;
        readonly function: { readonly name: string; readonly arguments: string };
      }[];
    };
    readonly finish_reason: string;
  }[];
  readonly usage?: {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly total_tokens: number;
  };
  readonly error?: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    readonly code: string | null;
  };
}

export interface ChatAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly json: CompletionJson;
}

export interface RunningFakeLlm {
  readonly fake: FakeLlm;
  /** Base URL, without `/v1`. */
  readonly url: string;
  /** POST /v1/chat/completions; `key: null` sends no Authorization header. */
  chat(
    body: unknown,
    options?: { key?: string | null; path?: string; signal?: AbortSignal },
  ): Promise<ChatAnswer>;
}

export const LLM_KEY = "fake-llm-key";

/** A fake LLM listening on 127.0.0.1, port 0. */
export async function startFakeLlm(
  options: FakeLlmOptions = {},
  deps: Partial<FakeLlmDeps> = {},
): Promise<RunningFakeLlm> {
  const fake = createFakeLlm({ logger: createLogger({ level: "silent" }), ...deps }, options);
  const url = await fake.listen();
  return {
    fake,
    url,
    async chat(body, chatOptions = {}) {
      const key = chatOptions.key === undefined ? LLM_KEY : chatOptions.key;
      const response = await fetch(`${url}${chatOptions.path ?? "/v1/chat/completions"}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
        ...(chatOptions.signal === undefined ? {} : { signal: chatOptions.signal }),
      });
      return {
        status: response.status,
        headers: response.headers,
        json: (await response.json()) as CompletionJson,
      };
    },
  };
}

/** A minimal valid request: one user message. */
export function userSays(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: "gpt-4o-mini", messages: [{ role: "user", content: text }], ...extra };
}

/** An OpenAI tool definition. */
export function tool(name: string, description = `The ${name} tool.`): Record<string, unknown> {
  return {
    type: "function",
    function: {
      name,
      description,
      parameters: { type: "object", properties: { orderId: { type: "string" } } },
    },
  };
}

/** `startFakeLlm` for one test file: every fake it starts is closed after each test. */
export function trackFakeLlms(afterEachHook: (fn: () => Promise<void>) => void) {
  const running: RunningFakeLlm[] = [];
  afterEachHook(async () => {
    await Promise.all(running.splice(0).map((r) => r.fake.close()));
  });
  return async (...args: Parameters<typeof startFakeLlm>): Promise<RunningFakeLlm> => {
    const started = await startFakeLlm(...args);
    running.push(started);
    return started;
  };
}
