import { signatureFor } from "../../ingress/index.js";

/** Where and how to post a webhook: the receiving webhook URL and the app secret that signs. */
export interface WebhookTarget {
  readonly webhookUrl: string;
  readonly appSecret: string;
}

/** What the webhook receiver answered. */
export interface WebhookPostResult {
  readonly status: number;
  readonly body: string;
}

const POST_TIMEOUT_MS = 10_000;

/**
 * POSTs `body` (exact bytes, as Meta sends them) with Meta's
 * X-Hub-Signature-256 over those bytes; gives up after 10 s or on `signal`.
 */
export async function postSignedWebhook(
  fetchFn: typeof fetch,
  target: WebhookTarget,
  body: string,
  signal: AbortSignal,
): Promise<WebhookPostResult> {
  const response = await fetchFn(target.webhookUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-hub-signature-256": signatureFor(body, target.appSecret),
    },
    body,
    signal: AbortSignal.any([signal, AbortSignal.timeout(POST_TIMEOUT_MS)]),
  });
  return { status: response.status, body: await response.text() };
}
