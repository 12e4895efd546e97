import { randomBytes } from "node:crypto";
import type { TenantConfig } from "../config/index.js";
import { escapeNonAscii } from "../dev/index.js";
import { signatureFor } from "../ingress/index.js";
import { conversationKeyOf } from "../whatsapp/index.js";
import { ConsoleError } from "./errors.js";

/** What the simulator sends as the pretend customer. */
export interface SimulatedMessage {
  readonly tenant: string;
  readonly phoneNumberId?: string | undefined;
  /** The pretend customer's wa_id. */
  readonly from: string;
  readonly name?: string | undefined;
  readonly text?: string | undefined;
  readonly buttonReply?: { readonly id: string; readonly title: string } | undefined;
  readonly listReply?: { readonly id: string; readonly title: string } | undefined;
  readonly chaos?: SimulatorChaos | undefined;
}

/** Meta's misbehaviours the gateway must absorb, on demand. */
export interface SimulatorChaos {
  /** Every webhook is delivered twice (Meta retries what it thinks failed). */
  readonly duplicate?: boolean | undefined;
  /** The text goes as two or three messages delivered newest first; their timestamps tell the order. */
  readonly outOfOrder?: boolean | undefined;
  /** The text goes as a burst of three messages, as people type. */
  readonly burst?: boolean | undefined;
  /** The message arrives two hours late, as a replay of an old delivery. */
  readonly staleReplay?: boolean | undefined;
}

export interface SimulatorDeps {
  readonly tenants: readonly TenantConfig[];
  /** GRAPH_API_BASE_URL: replies go there, so the simulator runs only when it is on this machine. */
  readonly graphBaseUrl: string;
  /** The gateway's public listener, where Meta's webhooks arrive (known once it listens). */
  readonly ingressUrl: () => string | undefined;
  readonly now: () => number;
  readonly fetch?: typeof fetch;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
const STALE_BY_MS = 2 * 3_600_000;
/** The business account id simulated webhooks name. */
const SIMULATOR_WABA_ID = "100000000000001";

export type Simulator = ReturnType<typeof createSimulator>;

/**
 * The console's WhatsApp simulator: posts correctly signed webhooks, as Meta
 * would, to the real ingress, so a simulated message takes the same path as
 * a customer's. Off unless the Graph API is on this machine (the demo's fake):
 * the bot's answers would otherwise go to a real WhatsApp number.
 */
export function createSimulator(deps: SimulatorDeps) {
  const local = LOOPBACK_HOSTS.has(new URL(deps.graphBaseUrl).hostname);
  const doFetch = deps.fetch ?? fetch;

  const availability = (): { available: boolean; reason?: string } =>
    local
      ? { available: true }
      : {
          available: false,
          reason: `the Graph API is ${new URL(deps.graphBaseUrl).origin}, not a fake on this machine: the bot's replies would go to a real WhatsApp user, so the simulator is off (use the demo, or point GRAPH_API_BASE_URL at the fake)`,
        };

  const post = async (url: string, tenant: TenantConfig, body: Buffer) => {
    let response: Response;
    try {
      response = await doFetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": signatureFor(body, tenant.appSecret),
        },
        body,
        signal: AbortSignal.timeout(5000),
      });
    } catch (error) {
      throw new ConsoleError(
        "simulatorUnavailable",
        `the ingress at ${url} did not answer (${(error as Error).message})`,
      );
    }
    if (response.status !== 200) {
      throw new ConsoleError(
        "simulatorUnavailable",
        `the ingress answered ${response.status} to a simulated webhook`,
      );
    }
  };

  return {
    availability,

    async send(message: SimulatedMessage): Promise<{ conversationKey: string; wamids: string[] }> {
      const state = availability();
      if (!state.available) throw new ConsoleError("simulatorUnavailable", state.reason ?? "simulator off");
      const tenant = deps.tenants.find((candidate) => candidate.id === message.tenant);
      if (tenant === undefined) throw new ConsoleError("notFound", `no tenant "${message.tenant}"`);
      const phoneNumberId = message.phoneNumberId ?? tenant.phoneNumberIds[0];
      if (phoneNumberId === undefined || !tenant.phoneNumberIds.includes(phoneNumberId)) {
        throw new ConsoleError("invalidRequest", `phoneNumberId: not a number of tenant "${tenant.id}"`);
      }
      const ingress = deps.ingressUrl();
      if (ingress === undefined)
        throw new ConsoleError("simulatorUnavailable", "the ingress is not listening yet");
      const chaos = message.chaos ?? {};
      const nowSeconds = Math.floor((deps.now() - (chaos.staleReplay === true ? STALE_BY_MS : 0)) / 1000);
      const objects = messageObjects(message, chaos).map((object, index) => ({
        id: `wamid.SIM${randomBytes(12).toString("hex").toUpperCase()}`,
        // One second apart: the order Meta's timestamps give, whatever order the deliveries take.
        timestamp: String(nowSeconds + index),
        from: message.from,
        ...object,
      }));
      const deliveries = chaos.outOfOrder === true ? [...objects].reverse() : objects;
      const url = `${ingress}/webhook/${encodeURIComponent(tenant.id)}`;
      for (const object of deliveries) {
        const body = webhookBody(object, message, phoneNumberId);
        await post(url, tenant, body);
        if (chaos.duplicate === true) await post(url, tenant, body);
      }
      return {
        conversationKey: conversationKeyOf(tenant.id, phoneNumberId, message.from),
        wamids: objects.map((object) => object.id),
      };
    },
  };
}

/** The message objects to send, without id, timestamp and sender. */
function messageObjects(message: SimulatedMessage, chaos: SimulatorChaos): Record<string, unknown>[] {
  if (message.buttonReply !== undefined) {
    return [
      { type: "interactive", interactive: { type: "button_reply", button_reply: message.buttonReply } },
    ];
  }
  if (message.listReply !== undefined) {
    return [{ type: "interactive", interactive: { type: "list_reply", list_reply: message.listReply } }];
  }
  const text = message.text ?? "";
  const parts = chaos.burst === true ? 3 : chaos.outOfOrder === true ? 2 : 1;
  return splitWords(text, parts).map((body) => ({ type: "text", text: { body } }));
}

/** Up to `parts` pieces of whole words (fewer when there are fewer words). */
function splitWords(text: string, parts: number): string[] {
  const words = text.split(/\s+/).filter((word) => word !== "");
  if (parts <= 1 || words.length < 2) return [text];
  const count = Math.min(parts, words.length);
  const size = Math.ceil(words.length / count);
  const pieces: string[] = [];
  for (let start = 0; start < words.length; start += size)
    pieces.push(words.slice(start, start + size).join(" "));
  return pieces;
}

function webhookBody(
  object: Record<string, unknown>,
  message: SimulatedMessage,
  phoneNumberId: string,
): Buffer {
  const body = {
    object: "whatsapp_business_account",
    entry: [
      {
        id: SIMULATOR_WABA_ID,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: phoneNumberId, phone_number_id: phoneNumberId },
              contacts: [
                {
                  profile: { name: message.name ?? `Simulated ${message.from.slice(-4)}` },
                  wa_id: message.from,
                },
              ],
              messages: [object],
            },
          },
        ],
      },
    ],
  };
  // Compact, with non-ASCII escaped, exactly as Meta signs its bodies.
  return Buffer.from(escapeNonAscii(JSON.stringify(body)));
}
