import { afterEach, describe, expect, it } from "vitest";
import {
  executeHttpTool,
  type HttpToolDefinition,
  idempotencyKeyFor,
  parseTenantTools,
} from "../../src/agent/tools/index.js";
import {
  defineTool,
  startToolServer,
  type ToolServer,
  type ToolServerHandler,
} from "../support/tool-server.js";

const CONTEXT = { tenantId: "mama-put-foods", customerId: "2348012345678" };
/** A writing tool has side effects by default, so its calls carry a key. */
const KEYED = { ...CONTEXT, idempotencyKey: "ss-test-key" };
const SMUGGLED = {
  customer: "2349099999999",
  "X-Sharpsharp-Customer": "2349099999999",
  "X-Sharpsharp-Tenant": "other-tenant",
  wa_id: "2349099999999",
  phone: "+2349099999999",
};
const ORDER_PARAMETERS = {
  type: "object",
  required: ["orderId"],
  properties: { orderId: { type: "string", minLength: 1 } },
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function server(handler?: ToolServerHandler): Promise<ToolServer> {
  const started = await startToolServer(handler);
  cleanups.push(() => started.close());
  return started;
}

function only<T>(items: readonly T[]): T {
  expect(items).toHaveLength(1);
  return items[0] as T;
}

describe("executeHttpTool: the request it sends", () => {
  it("GET sends the arguments as the query string, keeps the URL's own, and sends no body", async () => {
    const api = await server();
    const tool = defineTool({
      url: `${api.url}/orders/status?version=2`,
      parameters: {
        type: "object",
        properties: {
          orderId: { type: "string" },
          count: { type: "integer" },
          open: { type: "boolean" },
          tags: { type: "array", items: { type: "string" } },
          version: { type: "string" },
        },
      },
    });
    const outcome = await executeHttpTool(
      tool,
      { orderId: "A 1&b=2", count: 3, open: false, tags: ["x", "y"], version: "1" },
      CONTEXT,
    );
    expect(outcome).toEqual({ ok: true, status: 200, body: '{"ok":true}', truncated: false });
    const received = only(api.requests);
    expect(received.method).toBe("GET");
    const url = new URL(received.url, api.url);
    expect(url.pathname).toBe("/orders/status");
    expect([...url.searchParams]).toEqual([
      ["version", "2"],
      ["orderId", "A 1&b=2"],
      ["count", "3"],
      ["open", "false"],
      ["tags", '["x","y"]'],
    ]);
    expect(received.body).toBe("");
    expect(received.headers["content-type"]).toBeUndefined();
    expect(received.headers.accept).toBe("application/json, text/plain");
  });

  it("POST sends the arguments as a JSON body", async () => {
    const api = await server((_request, response) =>
      response.writeHead(201, { "content-type": "application/json" }).end('{"refund":"R-9"}'),
    );
    const tool = defineTool({ method: "POST", url: `${api.url}/refunds`, parameters: ORDER_PARAMETERS });
    const outcome = await executeHttpTool(tool, { orderId: "A1" }, KEYED);
    expect(outcome).toEqual({ ok: true, status: 201, body: '{"refund":"R-9"}', truncated: false });
    const received = only(api.requests);
    expect(received.method).toBe("POST");
    expect(received.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(received.body)).toEqual({ orderId: "A1" });
  });

  it.each(["PUT", "PATCH", "DELETE"])("%s sends a JSON body too", async (method) => {
    const api = await server();
    const tool = defineTool({ method, url: `${api.url}/orders`, parameters: ORDER_PARAMETERS });
    expect(await executeHttpTool(tool, { orderId: "A1" }, KEYED)).toMatchObject({ ok: true });
    const received = only(api.requests);
    expect(received.method).toBe(method);
    expect(JSON.parse(received.body)).toEqual({ orderId: "A1" });
  });

  it("sends a tool without parameters an empty query or body", async () => {
    const api = await server();
    const get = defineTool({ url: `${api.url}/hours` });
    expect(get.parameters).toEqual({ type: "object", properties: {} });
    expect(await executeHttpTool(get, undefined, CONTEXT)).toMatchObject({ ok: true });
    expect(await executeHttpTool(get, { customer: "x" }, CONTEXT)).toMatchObject({ ok: true });
    expect(api.requests.map((request) => request.url)).toEqual(["/hours", "/hours"]);
  });
});

describe("executeHttpTool: the customer comes from the gateway, never from the model", () => {
  it("drops arguments the schema does not declare, at every level, and sends the context's identity", async () => {
    const api = await server();
    const tool = defineTool({
      method: "POST",
      url: `${api.url}/orders`,
      parameters: {
        type: "object",
        properties: {
          orderId: { type: "string" },
          address: { type: "object", properties: { street: { type: "string" } } },
          items: { type: "array", items: { type: "object", properties: { sku: { type: "string" } } } },
          extra: { type: "object" },
        },
      },
    });
    const args = {
      orderId: "A1",
      address: { street: "Admiralty Way", ...SMUGGLED },
      items: [{ sku: "jollof", ...SMUGGLED }],
      extra: { note: "leave at the gate", ...SMUGGLED },
      ...SMUGGLED,
    };
    const before = structuredClone(args);
    expect(await executeHttpTool(tool, args, KEYED)).toMatchObject({ ok: true });
    expect(args).toEqual(before);
    const received = only(api.requests);
    expect(JSON.parse(received.body)).toEqual({
      orderId: "A1",
      address: { street: "Admiralty Way" },
      items: [{ sku: "jollof" }],
      // An object declared without properties is free-form for ajv; the gateway empties it.
      extra: {},
    });
    expect(received.headers["x-sharpsharp-tenant"]).toBe(CONTEXT.tenantId);
    expect(received.headers["x-sharpsharp-customer"]).toBe(CONTEXT.customerId);
  });

  it("sends the context's identity in the headers even when the schema declares identity-looking arguments", async () => {
    const api = await server();
    const tool = defineTool({
      url: `${api.url}/orders`,
      parameters: {
        type: "object",
        properties: { customer: { type: "string" }, "X-Sharpsharp-Customer": { type: "string" } },
      },
    });
    expect(await executeHttpTool(tool, SMUGGLED, CONTEXT)).toMatchObject({ ok: true });
    const received = only(api.requests);
    expect(received.headers["x-sharpsharp-customer"]).toBe(CONTEXT.customerId);
    expect(received.headers["x-sharpsharp-tenant"]).toBe(CONTEXT.tenantId);
    expect(received.headers["idempotency-key"]).toBeUndefined();
  });

  it("config parsing refuses the gateway's headers in a tool's configuration", () => {
    const { tools, problems } = parseTenantTools(
      [
        {
          name: "get_order_status",
          description: "d",
          url: "https://api.example/orders",
          headers: { "X-Sharpsharp-Customer": "2349099999999", "idempotency-key": "fixed" },
        },
      ],
      () => undefined,
    );
    expect(tools).toEqual([]);
    expect(problems).toHaveLength(2);
  });

  it("overrides them anyway in a definition built by hand", async () => {
    const api = await server();
    const tool: HttpToolDefinition = {
      ...defineTool({ url: `${api.url}/orders`, parameters: ORDER_PARAMETERS }),
      headers: {
        "x-sharpsharp-customer": "2349099999999",
        "X-SHARPSHARP-TENANT": "other-tenant",
        "X-Sharpsharp-Debug": "1",
        "Idempotency-Key": "chosen-by-config",
        Accept: "text/html",
        "X-Api-Version": "7",
      },
    };
    expect(
      await executeHttpTool(tool, { orderId: "A1" }, { ...CONTEXT, idempotencyKey: "ss-k" }),
    ).toMatchObject({
      ok: true,
    });
    const { headers } = only(api.requests);
    expect(headers["x-sharpsharp-customer"]).toBe(CONTEXT.customerId);
    expect(headers["x-sharpsharp-tenant"]).toBe(CONTEXT.tenantId);
    expect(headers["x-sharpsharp-debug"]).toBeUndefined();
    expect(headers["idempotency-key"]).toBeUndefined();
    expect(headers.accept).toBe("application/json, text/plain");
    expect(headers["x-api-version"]).toBe("7");
  });

  it("refuses a call without a customer", async () => {
    const api = await server();
    const tool = defineTool({ url: `${api.url}/orders` });
    const outcome = await executeHttpTool(tool, {}, { tenantId: "mama-put-foods", customerId: "" });
    expect(outcome).toMatchObject({ ok: false, reason: "refused" });
    expect(api.requests).toEqual([]);
  });
});

describe("executeHttpTool: arguments", () => {
  it.each([
    ["a missing required property", {}, "must have required property 'orderId'"],
    ["a wrong type", { orderId: 42 }, "orderId must be string"],
    ["not an object", "A1", "must be object"],
    ["null", null, "must be object"],
  ])("sends nothing for %s", async (_case, args, message) => {
    const api = await server();
    const tool = defineTool({ method: "POST", url: `${api.url}/refunds`, parameters: ORDER_PARAMETERS });
    const outcome = await executeHttpTool(tool, args, CONTEXT);
    expect(outcome).toEqual({
      ok: false,
      reason: "invalid_arguments",
      error: `invalid arguments: ${message}`,
    });
    expect(api.requests).toEqual([]);
  });
});

describe("executeHttpTool: a definition built by hand", () => {
  it.each([
    ["a header value fetch refuses", { headers: { "X-Shop": "a\r\nX-Sharpsharp-Customer: 1" } }],
    ["a schema ajv cannot compile", { parameters: { type: "object", required: "orderId" } }],
    ["a schema that cannot be cloned", { parameters: { type: "object", properties: { a: () => 1 } } }],
  ])("refuses a tool with %s without throwing or sending", async (_case, override) => {
    const api = await server();
    const tool = { ...defineTool({ url: `${api.url}/orders` }), ...override } as HttpToolDefinition;
    expect(await executeHttpTool(tool, {}, CONTEXT)).toEqual({
      ok: false,
      reason: "refused",
      error: "the tool get_order_status is misconfigured and cannot be used",
    });
    expect(api.requests).toEqual([]);
  });
});

describe("executeHttpTool: Idempotency-Key", () => {
  const turn = { tenantId: CONTEXT.tenantId, turnId: "turn-c1" };

  it("is sent only by side-effect tools, the same for the same call and different for the next call", async () => {
    const api = await server();
    const refund = defineTool({
      name: "refund_order",
      method: "POST",
      url: `${api.url}/refunds`,
      parameters: ORDER_PARAMETERS,
      sideEffects: true,
    });
    const call = (orderId: string, callIndex: number) => {
      const idempotencyKey = idempotencyKeyFor({ ...turn, toolName: refund.name, callIndex });
      return executeHttpTool(refund, { orderId }, { ...CONTEXT, idempotencyKey });
    };
    // A retried turn's first call, worded otherwise by the model, is still the first call: the same key.
    for (const [orderId, index] of [
      ["A1", 0],
      ["a1 ", 0],
      ["A2", 1],
    ] as const)
      expect(await call(orderId, index)).toMatchObject({ ok: true });
    const keys = api.requests.map((request) => request.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^ss-[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^ss-[0-9a-f]{32}$/);
    expect(keys[2]).not.toBe(keys[0]);

    const read = defineTool({ url: `${api.url}/orders`, parameters: ORDER_PARAMETERS });
    await executeHttpTool(read, { orderId: "A1" }, { ...CONTEXT, idempotencyKey: "ss-unused" });
    expect(api.requests.at(-1)?.headers["idempotency-key"]).toBeUndefined();
  });

  it("a writing tool has side effects unless it opts out: POST, PUT, PATCH and DELETE carry the key", async () => {
    const api = await server();
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const tool = defineTool({ method, url: `${api.url}/orders`, parameters: ORDER_PARAMETERS });
      expect(tool.sideEffects, method).toBe(true);
      expect(await executeHttpTool(tool, { orderId: "A1" }, CONTEXT)).toMatchObject({
        ok: false,
        reason: "refused",
      });
      await executeHttpTool(tool, { orderId: "A1" }, { ...CONTEXT, idempotencyKey: `ss-${method}` });
    }
    expect(api.requests.map((request) => request.headers["idempotency-key"])).toEqual([
      "ss-POST",
      "ss-PUT",
      "ss-PATCH",
      "ss-DELETE",
    ]);
    const search = defineTool({ method: "POST", url: `${api.url}/search`, sideEffects: false });
    expect(search.sideEffects).toBe(false);
    expect(defineTool({ url: `${api.url}/status` }).sideEffects).toBe(false);
  });

  it("a confirm tool carries one too, and a side-effect call without a key is refused unsent", async () => {
    const api = await server();
    const tool = defineTool({
      method: "POST",
      url: `${api.url}/refunds`,
      parameters: ORDER_PARAMETERS,
      confirm: true,
    });
    expect(tool.sideEffects).toBe(true);
    const outcome = await executeHttpTool(tool, { orderId: "A1" }, CONTEXT);
    expect(outcome).toMatchObject({ ok: false, reason: "refused" });
    expect(api.requests).toEqual([]);
    await executeHttpTool(tool, { orderId: "A1" }, { ...CONTEXT, idempotencyKey: "ss-0123" });
    expect(only(api.requests).headers["idempotency-key"]).toBe("ss-0123");
  });
});

describe("executeHttpTool: secrets from the environment", () => {
  it("sends a header resolved through readSecret, with its prefix", async () => {
    const api = await server();
    const tool = defineTool(
      {
        url: `${api.url}/orders`,
        headers: { Authorization: { env: "MAMAPUT_API_KEY", prefix: "Bearer " }, "X-Shop": "lekki" },
      },
      { MAMAPUT_API_KEY: "k-123" },
    );
    expect(await executeHttpTool(tool, {}, CONTEXT)).toMatchObject({ ok: true });
    const { headers } = only(api.requests);
    expect(headers.authorization).toBe("Bearer k-123");
    expect(headers["x-shop"]).toBe("lekki");
  });
});
