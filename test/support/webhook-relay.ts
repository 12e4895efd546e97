import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** A webhook the relay holds until its receiver takes it. */
interface HeldWebhook {
  readonly body: Buffer;
  readonly signature: string;
}

/** Stands between the fake Graph API and a gateway that is killed and restarted on a new port. */
export interface WebhookRelay {
  /** Where the fake posts (its autoStatuses webhookUrl). */
  readonly url: string;
  /** Where webhooks go now (`<gateway>/webhook`); undefined while the gateway is down. */
  setTarget(url: string | undefined): void;
  /** Webhooks not yet accepted by the gateway. */
  held(): number;
  /** Webhooks the gateway accepted (200). */
  delivered(): number;
  /** Resolves once every webhook taken so far was accepted, or rejects after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Meta retries a webhook its receiver did not take (for days); the fake posts each status once. The
 * relay accepts every post at once and delivers it, signature unchanged, to the current target
 * until the gateway answers 200, so statuses of messages sent just before a kill -9 still arrive
 * after the restart, as they would from Meta.
 */
export async function startWebhookRelay(options: { concurrency?: number } = {}): Promise<WebhookRelay> {
  const queue: HeldWebhook[] = [];
  let target: string | undefined;
  let inFlight = 0;
  let accepted = 0;
  let closed = false;

  const deliverOne = async (webhook: HeldWebhook): Promise<boolean> => {
    if (target === undefined) return false;
    try {
      const response = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": webhook.signature },
        body: webhook.body,
        signal: AbortSignal.timeout(5_000),
      });
      await response.arrayBuffer();
      return response.status === 200;
    } catch {
      return false;
    }
  };
  const pump = async () => {
    while (!closed) {
      const webhook = queue.shift();
      if (webhook === undefined) return;
      inFlight++;
      const ok = await deliverOne(webhook);
      inFlight--;
      if (ok) accepted++;
      else {
        queue.push(webhook);
        await sleep(100);
      }
    }
  };
  const workers = new Set<Promise<void>>();
  const wake = () => {
    while (workers.size < (options.concurrency ?? 32) && queue.length > 0 && !closed) {
      const worker = pump().finally(() => {
        workers.delete(worker);
        wake();
      });
      workers.add(worker);
    }
  };

  const server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        const signature = request.headers["x-hub-signature-256"];
        queue.push({ body, signature: typeof signature === "string" ? signature : "" });
        response.writeHead(200).end("EVENT_RECEIVED");
        wake();
      },
      () => response.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/webhook`,
    setTarget(url) {
      target = url;
      wake();
    },
    held: () => queue.length + inFlight,
    delivered: () => accepted,
    async drained(timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (queue.length + inFlight > 0) {
        if (Date.now() > until) throw new Error(`${queue.length + inFlight} webhooks still held`);
        await sleep(25);
      }
    },
    async close() {
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...workers]);
    },
  };
}
