import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningEmbedded, startEmbedded } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { EXAMPLE_BUSINESS, escapeNonAscii, type FakeGraphApiOptions } from "../../src/dev/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger } from "../../src/observability/index.js";
import { type RunningFake, startFake } from "../support/fake-graph.js";
import {
  ADMIN,
  messagesWebhook,
  SHOP,
  SHOP_ENV,
  SHOP_NUMBER,
  SHOP_SECRET,
  shopTenantEntry,
} from "./shop-campaign-fixtures.js";

export interface ApiAnswer {
  readonly status: number;
  readonly json: Record<string, unknown> & { error?: string; message?: string };
}

/** The embedded gateway (in this process) with the shop tenant, an admin of every tenant, and the fake Graph API. */
export interface CampaignGateway {
  readonly fake: RunningFake;
  readonly gateway: RunningEmbedded;
  /** The admin listener: the console API. */
  readonly consoleUrl: string;
  /** Where Meta posts the shop's webhooks. */
  readonly webhookUrl: string;
  /** Logs in and creates an API token for that operator. */
  apiToken(email: string, password: string): Promise<string>;
  /** A console API call with an API token. */
  api(token: string, method: "GET" | "POST", path: string, body?: unknown): Promise<ApiAnswer>;
  /** A signed webhook body, as Meta posts it to the shop. */
  postWebhook(body: unknown): Promise<number>;
  /** A customer's text message (quoting `contextId` when given), through the signed webhook. */
  customerSays(from: string, text: string, contextId?: string): Promise<number>;
  /** Text bodies the gateway sent this customer, oldest first. */
  textsTo(waId: string): string[];
  /** Template sends the fake accepted, by customer wa_id. */
  templateSends(): Map<string, number>;
  close(): Promise<void>;
}

let inbound = 0;

export async function startCampaignGateway(
  options: {
    readonly fake?: Partial<FakeGraphApiOptions>;
    /** More variables (an LLM). */
    readonly env?: Record<string, string>;
    /** More fields of the shop tenant. */
    readonly tenant?: Record<string, unknown>;
  } = {},
): Promise<CampaignGateway> {
  const dir = mkdtempSync(join(tmpdir(), "ss-campaign-gw-"));
  let webhookUrl: string | undefined;
  const fake = await startFake({
    phoneNumberIds: [SHOP_NUMBER],
    autoStatuses: {
      webhookUrl: () => webhookUrl,
      appSecret: SHOP_SECRET,
      delayMs: 20,
      statuses: ["sent", "delivered", "read"],
    },
    ...options.fake,
  });
  const tenantsFile = join(dir, "tenants.json");
  writeFileSync(tenantsFile, JSON.stringify({ tenants: [shopTenantEntry(options.tenant)] }));
  let gateway: RunningEmbedded;
  try {
    const config = loadConfig({
      env: {
        SHARPSHARP_CONFIG: tenantsFile,
        ...SHOP_ENV,
        GRAPH_API_BASE_URL: fake.url,
        SHARPSHARP_DATA_DIR: join(dir, "data"),
        HOST: "127.0.0.1",
        PORT: "0",
        ADMIN_PORT: "0",
        COALESCE_WINDOW_MS: "0",
        COALESCE_MAX_MS: "0",
        ...options.env,
      },
      cwd: dir,
    });
    gateway = await startEmbedded(config, {
      logger: createLogger({ level: (process.env.TEST_LOG_LEVEL ?? "silent") as "silent" }),
      graceMs: 500,
      ensureOperator: {
        ...ADMIN,
        name: "Ada Admin",
        grants: [{ tenantId: "*", role: "admin" }],
      },
    });
  } catch (error) {
    await fake.fake.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  webhookUrl = `${gateway.url}/webhook/${SHOP}`;
  const consoleUrl = gateway.adminUrl;

  const api: CampaignGateway["api"] = async (token, method, path, body) => {
    const response = await fetch(`${consoleUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text === "" ? {} : JSON.parse(text) };
  };

  const postWebhook = async (body: unknown) => {
    const bytes = Buffer.from(escapeNonAscii(JSON.stringify(body)));
    const response = await fetch(webhookUrl as string, {
      method: "POST",
      body: bytes,
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": signatureFor(bytes, SHOP_SECRET),
      },
    });
    return response.status;
  };

  return {
    fake,
    gateway,
    consoleUrl,
    webhookUrl,
    async apiToken(email, password) {
      const login = await fetch(`${consoleUrl}/api/v1/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      if (login.status !== 200) throw new Error(`login answered ${login.status}`);
      const { csrfToken } = (await login.json()) as { csrfToken: string };
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
      const made = await fetch(`${consoleUrl}/api/v1/tokens`, {
        method: "POST",
        headers: { cookie, "x-csrf-token": csrfToken, "content-type": "application/json" },
        body: JSON.stringify({ name: "campaign tests" }),
      });
      if (made.status !== 201) throw new Error(`token answered ${made.status}: ${await made.text()}`);
      return ((await made.json()) as { token: string }).token;
    },
    api,
    postWebhook,
    customerSays(from, text, contextId) {
      const message = {
        from,
        id: `wamid.in-${process.pid}-${++inbound}-${Date.now()}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: "text",
        text: { body: text },
        ...(contextId === undefined
          ? {}
          : { context: { from: EXAMPLE_BUSINESS.displayPhoneNumber, id: contextId } }),
      };
      return postWebhook(
        messagesWebhook({ contacts: [{ profile: { name: "Customer" }, wa_id: from }], messages: [message] }),
      );
    },
    textsTo(waId) {
      return fake.fake
        .messages({ to: waId })
        .filter((m) => m.type === "text")
        .map((m) => String((m.body.text as { body?: unknown } | undefined)?.body));
    },
    templateSends() {
      const counts = new Map<string, number>();
      for (const message of fake.fake.messages()) {
        if (message.type !== "template") continue;
        const customer = (message.to ?? message.recipient ?? "").replace(/^\+/, "");
        counts.set(customer, (counts.get(customer) ?? 0) + 1);
      }
      return counts;
    },
    async close() {
      await gateway.close();
      await fake.fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
