import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { executeHttpTool } from "../../src/agent/tools/index.js";
import { eventually } from "../support/eventually.js";
import {
  defineTool,
  startToolServer,
  type ToolServer,
  type ToolServerHandler,
} from "../support/tool-server.js";

const CONTEXT = { tenantId: "mama-put-foods", customerId: "2348012345678" };
const FIVE_MB = 5 * 1024 * 1024;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function server(handler?: ToolServerHandler): Promise<ToolServer> {
  const started = await startToolServer(handler);
  cleanups.push(() => started.close());
  return started;
}

const neverAnswers: ToolServerHandler = () => undefined;

/**
 * The connection that carried the call is closed at once. Node 20's undici then opens one spare
 * connection to the origin and never sends on it (nodejs/undici#5845: the aborted request is
 * re-queued and reconnected for); it is closed after a few idle seconds.
 */
async function expectConnectionClosed(api: ToolServer, waitForSpare = false): Promise<void> {
  await eventually(() => api.openRequestSockets() === 0, 500, 10);
  if (waitForSpare) await eventually(() => api.openSockets() === 0, 6000, 100);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("executeHttpTool: timeout and cancellation", () => {
  it("gives up on a server that never answers at timeoutMs and leaves no socket open", async () => {
    const api = await server(neverAnswers);
    const tool = defineTool({ url: `${api.url}/slow`, timeoutMs: 300 });
    const started = performance.now();
    const outcome = await executeHttpTool(tool, {}, CONTEXT);
    const elapsed = performance.now() - started;
    expect(outcome).toEqual({ ok: false, reason: "timeout", error: "timed out after 300 ms" });
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(500);
    expect(api.requests).toHaveLength(1);
    await expectConnectionClosed(api, true);
  });

  it("counts the body in the timeout: headers then silence is a timeout too", async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"orders": [');
    });
    const tool = defineTool({ url: `${api.url}/stalls`, timeoutMs: 200 });
    const started = performance.now();
    expect(await executeHttpTool(tool, {}, CONTEXT)).toMatchObject({ ok: false, reason: "timeout" });
    expect(performance.now() - started).toBeLessThan(400);
    await expectConnectionClosed(api);
  });

  it("stops when the caller's signal aborts, well before the timeout", async () => {
    const api = await server(neverAnswers);
    const tool = defineTool({ url: `${api.url}/slow`, timeoutMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const outcome = await executeHttpTool(tool, {}, CONTEXT, { signal: controller.signal });
    expect(outcome).toMatchObject({ ok: false, reason: "aborted" });
    expect(performance.now() - started).toBeLessThan(1000);
    await expectConnectionClosed(api);
  });

  it("sends nothing when the caller's signal is already aborted", async () => {
    const api = await server();
    const tool = defineTool({ url: `${api.url}/orders` });
    const outcome = await executeHttpTool(tool, {}, CONTEXT, { signal: AbortSignal.abort() });
    expect(outcome).toMatchObject({ ok: false, reason: "aborted" });
    expect(api.requests).toEqual([]);
  });
});

describe("executeHttpTool: response size cap", () => {
  it("cuts a 5 MB answer at maxResponseBytes and closes the connection early", async () => {
    let sent = 0;
    let closedEarly = false;
    const api = await server((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain", "content-length": String(FIVE_MB) });
      response.on("close", () => {
        closedEarly = !response.writableFinished;
      });
      const chunk = Buffer.alloc(64 * 1024, "a");
      // Paced, so the answer cannot sit whole in the loopback socket buffers before the client cancels.
      const writeNext = () => {
        if (response.destroyed || sent >= FIVE_MB) return void response.end();
        sent += chunk.length;
        response.write(chunk);
        setTimeout(writeNext, 5);
      };
      writeNext();
    });
    const tool = defineTool({ url: `${api.url}/big` });
    const outcome = await executeHttpTool(tool, {}, CONTEXT);
    expect(outcome).toMatchObject({ ok: true, status: 200, truncated: true });
    expect(outcome.ok && outcome.body).toBe("a".repeat(65_536));
    await eventually(() => closedEarly, 2000);
    expect(sent).toBeLessThan(FIVE_MB / 4);
    await expectConnectionClosed(api);
  });

  it("reads only the cap of a 5 MB answer written at once", async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(Buffer.alloc(FIVE_MB, "b"));
    });
    const tool = defineTool({ url: `${api.url}/big`, maxResponseBytes: 1000 });
    const outcome = await executeHttpTool(tool, {}, CONTEXT);
    expect(outcome).toEqual({ ok: true, status: 200, body: "b".repeat(1000), truncated: true });
  });

  it.each([
    ["é", 11, "é".repeat(5)],
    ["😀", 10, "😀".repeat(2)],
    ["😀", 12, "😀".repeat(3)],
  ])("never ends a cut body inside a multi-byte character (%s, cap %d)", async (char, cap, expected) => {
    const api = await server((_request, response) => response.end(char.repeat(100)));
    const tool = defineTool({ url: `${api.url}/utf8`, maxResponseBytes: cap });
    expect(await executeHttpTool(tool, {}, CONTEXT)).toEqual({
      ok: true,
      status: 200,
      body: expected,
      truncated: true,
    });
  });

  it("does not call an answer of exactly maxResponseBytes truncated", async () => {
    const api = await server((_request, response) => response.end("x".repeat(64)));
    const tool = defineTool({ url: `${api.url}/exact`, maxResponseBytes: 64 });
    expect(await executeHttpTool(tool, {}, CONTEXT)).toEqual({
      ok: true,
      status: 200,
      body: "x".repeat(64),
      truncated: false,
    });
  });
});

describe("executeHttpTool: failures the model reads", () => {
  it("turns a non-2xx answer into an error with the status and the first 300 characters", async () => {
    const api = await server((_request, response) =>
      response.writeHead(404, { "content-type": "text/plain" }).end(`  ${"ń".repeat(500)}`),
    );
    const tool = defineTool({ url: `${api.url}/orders` });
    expect(await executeHttpTool(tool, {}, CONTEXT)).toEqual({
      ok: false,
      reason: "http_status",
      status: 404,
      error: `HTTP 404: ${"ń".repeat(300)}`,
    });
  });

  it("reports a non-2xx answer without a body by its status", async () => {
    const api = await server((_request, response) => response.writeHead(503).end());
    const tool = defineTool({ url: `${api.url}/orders` });
    expect(await executeHttpTool(tool, {}, CONTEXT)).toEqual({
      ok: false,
      reason: "http_status",
      status: 503,
      error: "HTTP 503",
    });
  });

  it("does not follow a redirect", async () => {
    const api = await server((request, response) => {
      if (request.url === "/old") response.writeHead(302, { location: "/new" }).end();
      else response.end('{"followed":true}');
    });
    const tool = defineTool({ url: `${api.url}/old` });
    expect(await executeHttpTool(tool, {}, CONTEXT)).toEqual({
      ok: false,
      reason: "http_status",
      status: 302,
      error: "HTTP 302: redirects are not followed",
    });
    await sleep(50);
    expect(api.requests.map((request) => request.url)).toEqual(["/old"]);
  });

  it("turns a refused connection into a network error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const tool = defineTool({ url: `http://127.0.0.1:${port}/orders` });
    expect(await executeHttpTool(tool, {}, CONTEXT)).toEqual({
      ok: false,
      reason: "network",
      error: "network error (ECONNREFUSED)",
    });
  });

  it("turns an answer cut off mid-body into a network error", async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { "content-length": "100" });
      response.write("partial");
      setTimeout(() => response.destroy(), 20);
    });
    const tool = defineTool({ url: `${api.url}/cut` });
    expect(await executeHttpTool(tool, {}, CONTEXT)).toMatchObject({ ok: false, reason: "network" });
  });
});
