import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningEmbedded, startEmbedded } from "../../src/app/index.js";
import { type AppConfig, loadConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/observability/index.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "./fake-graph.js";

export const SHOP_NUMBER = "106540352242922";
export const BANK_NUMBER = "106540352242923";
export const ADMIN_EMAIL = "ada@shop.example";
export const ADMIN_PASSWORD = "correct horse battery";
const SHOP_SECRET = "shop-app-secret-0123456789";
const BANK_SECRET = "bank-app-secret-0123456789";

/** Two tenants (shop, bank) on one embedded gateway, a fake Graph API posting ticks for the shop, an admin of both. */
export interface ConsoleGateway {
  readonly fake: RunningFake;
  readonly gateway: RunningEmbedded;
  readonly config: AppConfig;
  /** The admin listener: the console and /api/v1. */
  readonly consoleUrl: string;
  close(): Promise<void>;
}

export async function startConsoleGateway(extraEnv: Record<string, string> = {}): Promise<ConsoleGateway> {
  const dir = mkdtempSync(join(tmpdir(), "ss-console-"));
  let webhookBase: string | undefined;
  const fake = await startFake({
    phoneNumberIds: [SHOP_NUMBER, BANK_NUMBER],
    autoStatuses: {
      webhookUrl: () => (webhookBase === undefined ? undefined : `${webhookBase}/webhook/shop`),
      appSecret: SHOP_SECRET,
      delayMs: 50,
      statuses: ["sent", "delivered", "read"],
    },
  });
  const tenantsFile = join(dir, "tenants.json");
  const tenant = (id: string, number: string) => ({
    id,
    appSecretEnv: `${id.toUpperCase()}_SECRET`,
    verifyTokenEnv: `${id.toUpperCase()}_VERIFY`,
    graphTokenEnv: "GRAPH_TOKEN",
    phoneNumberIds: [number],
  });
  writeFileSync(
    tenantsFile,
    JSON.stringify({ tenants: [tenant("shop", SHOP_NUMBER), tenant("bank", BANK_NUMBER)] }),
  );
  const config = loadConfig({
    env: {
      SHARPSHARP_CONFIG: tenantsFile,
      SHOP_SECRET,
      SHOP_VERIFY: "shop-verify",
      BANK_SECRET,
      BANK_VERIFY: "bank-verify",
      GRAPH_TOKEN,
      GRAPH_API_BASE_URL: fake.url,
      SHARPSHARP_DATA_DIR: join(dir, "data"),
      HOST: "127.0.0.1",
      PORT: "0",
      ADMIN_PORT: "0",
      COALESCE_WINDOW_MS: "0",
      COALESCE_MAX_MS: "0",
      ...extraEnv,
    },
    cwd: dir,
  });
  const gateway = await startEmbedded(config, {
    logger: createLogger({ level: "silent" }),
    ensureOperator: {
      email: ADMIN_EMAIL,
      name: "Ada Admin",
      password: ADMIN_PASSWORD,
      grants: [{ tenantId: "*", role: "admin" }],
    },
  });
  webhookBase = gateway.url;
  return {
    fake,
    gateway,
    config,
    consoleUrl: gateway.adminUrl,
    async close() {
      await gateway.close();
      await fake.fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A console client as a browser is: a cookie jar of one session and its CSRF token. */
export interface ConsoleClient {
  readonly csrfToken: string;
  readonly cookie: string;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  json<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

export async function logIn(baseUrl: string, email: string, password: string): Promise<ConsoleClient> {
  const response = await fetch(`${baseUrl}/api/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`login answered ${response.status}: ${await response.text()}`);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const request = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        cookie,
        ...(method === "GET" ? {} : { "x-csrf-token": csrfToken }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    csrfToken,
    cookie,
    request,
    async json<T>(method: string, path: string, body?: unknown) {
      const answer = await request(method, path, body);
      const text = await answer.text();
      if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`);
      return (text === "" ? {} : JSON.parse(text)) as T;
    },
  };
}

/** Polls `check` every 25 ms until it answers something, or fails after `withinMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  withinMs = 5000,
  what = "condition",
): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${withinMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** An open event stream of the console: what it has received so far, as text. */
export interface EventStreamReader {
  readonly contentType: string | null;
  text(): string;
  close(): Promise<void>;
}

export async function openEventStream(baseUrl: string, cookie: string): Promise<EventStreamReader> {
  const response = await fetch(`${baseUrl}/api/v1/events`, { headers: { cookie } });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      seen += decoder.decode(value, { stream: true });
    }
  })();
  return {
    contentType: response.headers.get("content-type"),
    text: () => seen,
    async close() {
      await reader.cancel();
      await reading.catch(() => {});
    },
  };
}
