import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { signatureFor } from "../../src/ingress/index.js";
import { createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { skipWithoutRedis } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";

// Short limits, so the test waits seconds: the defaults are 5 s for headers and 15 s for a request.
const LIMITS = {
  requestTimeoutMs: 1500,
  headersTimeoutMs: 1000,
  keepAliveTimeoutMs: 65_000,
  idleTimeoutMs: 70_000,
  maxConnections: 16,
};

/** Resolves with how long after `since` the server closed the socket, or "open" after `waitMs`. */
function closedWithin(socket: Socket, since: number, waitMs: number): Promise<number | "open"> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("open"), waitMs);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve(Date.now() - since);
    });
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port }, () => resolve(socket));
    socket.on("error", () => {});
    // Read (and drop) what the server sends, so its close is seen as soon as it happens.
    socket.resume();
    socket.once("error", reject);
  });
}

describe.skipIf(skipWithoutRedis)("the ingress's limits on a real socket", () => {
  let h: IngressHarness | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await h?.close();
    h = undefined;
  });

  async function listening(): Promise<number> {
    h = await createIngressHarness({ label: "limits", limits: LIMITS, bodyLimitBytes: 3 * 1024 * 1024 });
    await h.app.listen({ host: "127.0.0.1", port: 0 });
    return (h.app.server.address() as { port: number }).port;
  }

  it("cuts off a client that sends its body a byte at a time", async () => {
    const port = await listening();
    const socket = await open(port);
    sockets.push(socket);
    const started = Date.now();
    socket.write(
      "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
    );
    const drip = setInterval(() => socket.writable && socket.write("{"), 200);
    const closed = await closedWithin(socket, started, 6000);
    clearInterval(drip);
    expect(closed).not.toBe("open");
    // The request timeout plus Node's check interval (set to at most a second), with room for a busy machine.
    expect(closed as number).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 100);
    expect(closed as number).toBeLessThan(LIMITS.requestTimeoutMs + 3000);
  });

  it("cuts off a client that never finishes its headers", async () => {
    const port = await listening();
    const socket = await open(port);
    sockets.push(socket);
    const started = Date.now();
    socket.write("POST /webhook HTTP/1.1\r\nHost: x\r\n");
    const closed = await closedWithin(socket, started, 5000);
    expect(closed).not.toBe("open");
    expect(closed as number).toBeLessThan(LIMITS.headersTimeoutMs + 3000);
  });

  it("refuses connections past the cap and serves again once some close", async () => {
    const port = await listening();
    for (let i = 0; i < LIMITS.maxConnections; i++) sockets.push(await open(port));
    const extra = await open(port).catch(() => undefined);
    if (extra !== undefined) {
      sockets.push(extra);
      expect(await closedWithin(extra, Date.now(), 2000)).not.toBe("open");
    }
    for (const socket of sockets.splice(0, 4)) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const body = textWebhook([
      [{ wamid: "wamid.cap.1", from: "2348012345678", timestamp: 1_760_000_000, text: "hi" }],
    ]);
    const answer = await fetch(`http://127.0.0.1:${port}/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": signatureFor(body, "test-app-secret"),
      },
      body,
    });
    expect(answer.status).toBe(200);
  });

  it("accepts a valid 2 MB batch and refuses one over the limit with 413", async () => {
    await listening();
    const text = "x".repeat(1900);
    const batch = (count: number, tag: string) =>
      textWebhook([
        Array.from({ length: count }, (_, i) => ({
          wamid: `wamid.big.${tag}.${i}`,
          from: `2348${String(i).padStart(9, "0")}`,
          timestamp: 1_760_000_000,
          text,
        })),
      ]);
    const big = batch(1000, "ok");
    expect(big.length).toBeGreaterThan(2_000_000);
    expect((await (h as IngressHarness).post(big)).statusCode).toBe(200);
    const tooBig = batch(1700, "no");
    expect(tooBig.length).toBeGreaterThan(3 * 1024 * 1024);
    expect((await (h as IngressHarness).post(tooBig)).statusCode).toBe(413);
  });
});
