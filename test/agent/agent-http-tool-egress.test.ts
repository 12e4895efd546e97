import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { PassThrough } from "node:stream";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { createAgentMetrics, createTenantToolbox } from "../../src/agent/index.js";
import { executeHttpTool, type HttpToolDefinition } from "../../src/agent/tools/index.js";
import type { TenantConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/observability/index.js";
import { defineTool, startToolServer, type ToolServer } from "../support/tool-server.js";

const CONTEXT = { tenantId: "mama-put-foods", customerId: "2348012345678" };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function server(): Promise<ToolServer> {
  const started = await startToolServer();
  cleanups.push(() => started.close());
  return started;
}

const portOf = (api: ToolServer) => new URL(api.url).port;

/** A definition as the tenants file would give it, then pointed at `url` (parseTenantTools refuses a literal). */
const pointedAt = (url: string, allowNetworks: readonly string[] = []): HttpToolDefinition => ({
  ...defineTool({ url: "https://shop.example/orders" }),
  url,
  allowNetworks,
});

/** A DNS that answers `addresses` for every name, counting the questions. */
function fakeDns(...addresses: LookupAddress[]): LookupFunction & { asked: string[] } {
  const asked: string[] = [];
  const lookup = ((hostname, options, callback) => {
    asked.push(hostname);
    if (options.all === true) callback(null, addresses);
    else callback(null, addresses[0]?.address ?? "", addresses[0]?.family ?? 4);
  }) as LookupFunction & { asked: string[] };
  lookup.asked = asked;
  return lookup;
}

describe("executeHttpTool: the egress policy, checked at connect time", () => {
  it("refuses a tool URL of 127.0.0.1 and sends it nothing", async () => {
    const api = await server();
    const outcome = await executeHttpTool(pointedAt(`${api.url}/orders?id=A1`), {}, CONTEXT);
    expect(outcome).toEqual({
      ok: false,
      reason: "egress_refused",
      error: "refused: 127.0.0.1 is a loopback address this tool may not reach",
      refused: { address: "127.0.0.1", range: "loopback" },
    });
    expect(api.requests).toEqual([]);
    expect(api.openSockets()).toBe(0);
  });

  it("refuses the cloud metadata address, even with its link-local range allowed", async () => {
    for (const allow of [[], ["169.254.0.0/16"]]) {
      const outcome = await executeHttpTool(
        pointedAt("http://169.254.169.254/latest/meta-data/iam/security-credentials/", allow),
        {},
        CONTEXT,
      );
      expect(outcome).toMatchObject({
        ok: false,
        reason: "egress_refused",
        refused: { address: "169.254.169.254", range: "metadata" },
      });
    }
  });

  it("refuses the IPv4-mapped IPv6 form of loopback", async () => {
    const api = await server();
    const outcome = await executeHttpTool(
      pointedAt(`http://[::ffff:127.0.0.1]:${portOf(api)}/`),
      {},
      CONTEXT,
    );
    expect(outcome).toMatchObject({ reason: "egress_refused", refused: { range: "loopback" } });
    expect(api.requests).toEqual([]);
  });

  it("refuses localhost after resolving it, and a public-looking name that DNS points at loopback", async () => {
    const api = await server();
    const local = await executeHttpTool(pointedAt(`http://localhost:${portOf(api)}/orders`), {}, CONTEXT);
    expect(local).toMatchObject({ ok: false, reason: "egress_refused", refused: { range: "loopback" } });
    expect(local.ok === false && local.error).toMatch(
      /^refused: localhost resolves to (127\.0\.0\.1|::1), which/,
    );

    const dns = fakeDns({ address: "127.0.0.1", family: 4 });
    const tool = pointedAt(`http://orders.shop.example:${portOf(api)}/orders`);
    const rebound = await executeHttpTool(tool, {}, CONTEXT, { lookup: dns });
    expect(rebound).toEqual({
      ok: false,
      reason: "egress_refused",
      error:
        "refused: orders.shop.example resolves to 127.0.0.1, which is a loopback address this tool may not reach",
      refused: { address: "127.0.0.1", range: "loopback" },
    });
    expect(dns.asked).toEqual(["orders.shop.example"]);
    expect(api.requests).toEqual([]);
  });

  it("refuses a name when any of its addresses is refused", async () => {
    const api = await server();
    const dns = fakeDns({ address: "93.184.215.14", family: 4 }, { address: "10.0.0.7", family: 4 });
    const outcome = await executeHttpTool(pointedAt(`http://mixed.example:${portOf(api)}/`), {}, CONTEXT, {
      lookup: dns,
    });
    expect(outcome).toMatchObject({
      reason: "egress_refused",
      refused: { address: "10.0.0.7", range: "private" },
    });
  });

  it("calls the tool when allowNetworks covers the address, by literal and by name", async () => {
    const api = await server();
    const literal = await executeHttpTool(pointedAt(`${api.url}/orders`, ["127.0.0.1"]), {}, CONTEXT);
    expect(literal).toMatchObject({ ok: true, status: 200, body: '{"ok":true}' });

    const dns = fakeDns({ address: "127.0.0.1", family: 4 });
    const byName = pointedAt(`http://orders.internal:${portOf(api)}/orders`, ["127.0.0.0/8"]);
    expect(await executeHttpTool(byName, {}, CONTEXT, { lookup: dns })).toMatchObject({ ok: true });
    expect(api.requests.map((request) => `${request.method} ${request.url} ${request.headers.host}`)).toEqual(
      [`GET /orders ${new URL(api.url).host}`, `GET /orders orders.internal:${portOf(api)}`],
    );
  });

  it("asks DNS again for each new connection, so an answer that changes is judged again", async () => {
    const api = await startToolServer((_request, response) =>
      response.writeHead(200, { connection: "close" }).end("{}"),
    );
    cleanups.push(() => api.close());
    let answer: LookupAddress = { address: "127.0.0.1", family: 4 };
    const dns = ((_hostname, _options, callback) => callback(null, [answer])) as LookupFunction;
    const tool = pointedAt(`http://flip.example:${portOf(api)}/`, ["127.0.0.1"]);
    expect(await executeHttpTool(tool, {}, CONTEXT, { lookup: dns })).toMatchObject({ ok: true });
    answer = { address: "127.0.0.2", family: 4 };
    expect(await executeHttpTool(tool, {}, CONTEXT, { lookup: dns })).toMatchObject({
      reason: "egress_refused",
      refused: { address: "127.0.0.2", range: "loopback" },
    });
    expect(api.requests).toHaveLength(1);
  });
});

describe("the tenant toolbox: a refused call", () => {
  it("is a tool error for the model, counted by range and logged without the query string", async () => {
    const api = await server();
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on("data", (chunk: Buffer) => lines.push(...chunk.toString("utf8").trim().split("\n")));
    const registry = new Registry();
    const metrics = createAgentMetrics(registry);
    const tenant = {
      id: "mama-put-foods",
      settings: {
        tools: [
          {
            name: "get_order_status",
            description: "Status of the customer's orders.",
            url: `http://localhost:${portOf(api)}/orders?key=tenant-secret-query`,
          },
        ],
      },
    } as unknown as TenantConfig;
    const toolbox = createTenantToolbox(tenant, {
      logger: createLogger({ level: "info", destination: stream }),
      metrics,
    });
    const result = await toolbox.execute(
      "get_order_status",
      { orderId: "A1" },
      CONTEXT,
      AbortSignal.timeout(5000),
    );
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(
      /^error: refused: localhost resolves to .* a loopback address this tool may not reach$/,
    );
    expect(api.requests).toEqual([]);
    expect(await registry.getSingleMetricAsString("ss_agent_tool_egress_refused_total")).toContain(
      'ss_agent_tool_egress_refused_total{tenant="mama-put-foods",tool="get_order_status",range="loopback"} 1',
    );
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({
        level: 40,
        tenant: "mama-put-foods",
        tool: "get_order_status",
        url: `http://localhost:${portOf(api)}/orders`,
        range: "loopback",
      }),
    ]);
    expect(lines.join("\n")).not.toContain("tenant-secret-query");
    expect(lines.join("\n")).not.toContain(CONTEXT.customerId);
  });
});
