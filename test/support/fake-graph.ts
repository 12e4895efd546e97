import {
  createFakeGraphApi,
  type FakeGraphApi,
  type FakeGraphApiDeps,
  type FakeGraphApiOptions,
} from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";

export const GRAPH_TOKEN = "fake-graph-token";
export const PHONE_NUMBER_ID = "106540352242922";

/** What the fake answers a send with: a success, `{success: true}` or Meta's error. */
export interface GraphJson {
  readonly messaging_product?: string;
  readonly contacts?: readonly Record<string, string>[];
  readonly messages?: readonly { readonly id: string; readonly message_status?: string }[];
  readonly success?: boolean;
  readonly error?: {
    readonly message: string;
    readonly type: string;
    readonly code: number;
    readonly error_subcode?: number;
    readonly error_data?: { readonly messaging_product: string; readonly details: string };
    readonly fbtrace_id: string;
  };
}

export interface RunningFake {
  readonly fake: FakeGraphApi;
  readonly url: string;
  /** POST /v25.0/{phoneNumberId}/messages with the token (or `token: null` for none). */
  send(
    body: unknown,
    options?: { token?: string | null; phoneNumberId?: string; signal?: AbortSignal },
  ): Promise<{ status: number; json: GraphJson }>;
  get(path: string, token?: string | null): Promise<Response>;
}

/** A fake Graph API listening on 127.0.0.1, port 0. */
export async function startFake(
  options: Partial<FakeGraphApiOptions> = {},
  deps: Partial<FakeGraphApiDeps> = {},
): Promise<RunningFake> {
  const fake = createFakeGraphApi(
    { logger: createLogger({ level: "silent" }), ...deps },
    { tokens: [GRAPH_TOKEN], ...options },
  );
  const url = await fake.listen();
  const auth = (token: string | null | undefined): Record<string, string> =>
    token === null ? {} : { authorization: `Bearer ${token ?? GRAPH_TOKEN}` };
  return {
    fake,
    url,
    async send(body, sendOptions = {}) {
      const response = await fetch(`${url}/v25.0/${sendOptions.phoneNumberId ?? PHONE_NUMBER_ID}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", ...auth(sendOptions.token) },
        body: typeof body === "string" ? body : JSON.stringify(body),
        ...(sendOptions.signal === undefined ? {} : { signal: sendOptions.signal }),
      });
      return { status: response.status, json: (await response.json()) as GraphJson };
    },
    get: (path, token) => fetch(path.startsWith("http") ? path : `${url}${path}`, { headers: auth(token) }),
  };
}

/** A text send to `to`. */
export function textTo(to: string, body = "How far?"): Record<string, unknown> {
  return { messaging_product: "whatsapp", recipient_type: "individual", to, type: "text", text: { body } };
}

/**
 * `startFake` for one test file: every fake it starts is closed after each test.
 * Call once at the top of a file and use the returned function instead of startFake.
 */
export function trackFakes(afterEachHook: (fn: () => Promise<void>) => void) {
  const running: RunningFake[] = [];
  afterEachHook(async () => {
    await Promise.all(running.splice(0).map((r) => r.fake.close()));
  });
  return async (...args: Parameters<typeof startFake>): Promise<RunningFake> => {
    const started = await startFake(...args);
    running.push(started);
    return started;
  };
}
