import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** One webhook POST as it arrived: raw bytes and headers. */
export interface ReceivedWebhook {
  readonly raw: Buffer;
  readonly headers: IncomingHttpHeaders;
  readonly json: {
    object: string;
    entry: { id: string; time?: number; changes: { field: string; value: Record<string, unknown> }[] }[];
  };
}

/** A real HTTP receiver on loopback that keeps every POST and answers 200, for the fake's webhooks. */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      received.push({ raw, headers: request.headers, json: JSON.parse(raw.toString("utf8")) });
      response.writeHead(200, { "content-type": "text/plain" }).end("EVENT_RECEIVED");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    /** Waits (up to 5 s) until `count` webhooks have arrived. */
    async waitFor(count: number): Promise<ReceivedWebhook[]> {
      for (let waited = 0; received.length < count && waited < 5000; waited += 10) await sleep(10);
      if (received.length < count) throw new Error(`got ${received.length} webhooks, expected ${count}`);
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
