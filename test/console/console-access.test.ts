import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type ConsoleClient,
  type ConsoleGateway,
  eventually,
  logIn,
  openEventStream,
  startConsoleGateway,
} from "../support/console-harness.js";

interface OpenApiDocument {
  readonly openapi: string;
  readonly paths: Record<
    string,
    Record<
      string,
      { security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }
    >
  >;
  readonly components: { readonly schemas: Record<string, unknown> };
}

describe("console API: access", () => {
  let running: ConsoleGateway;
  let admin: ConsoleClient;
  let base: string;
  let openapi: OpenApiDocument;

  beforeAll(async () => {
    running = await startConsoleGateway();
    base = running.consoleUrl;
    admin = await logIn(base, ADMIN_EMAIL, ADMIN_PASSWORD);
    openapi = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as OpenApiDocument;
  });
  afterAll(async () => {
    await running?.close();
  });

  it("answers 401 on every documented route that needs an operator, without a session or token", async () => {
    const guarded: string[] = [];
    for (const [path, methods] of Object.entries(openapi.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (operation.security !== undefined && operation.security.length === 0) continue;
        const url = `${base}${path.replace(/\{[^}]+\}/g, "shop%3A106540352242922%3A2348000000001")}`;
        const response = await fetch(url, {
          method: method.toUpperCase(),
          ...(method === "get" || method === "delete"
            ? {}
            : { headers: { "content-type": "application/json" }, body: "{}" }),
        });
        expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 401`);
        expect(((await response.json()) as { error: string }).error).toBe("SS_CONSOLE_UNAUTHENTICATED");
        guarded.push(`${method} ${path}`);
      }
    }
    expect(guarded.length).toBeGreaterThanOrEqual(18);
  });

  it("refuses a wrong password and an unknown e-mail alike, and sets an HTTP-only, SameSite cookie on success", async () => {
    for (const [email, password] of [
      [ADMIN_EMAIL, "wrong password!"],
      ["nobody@shop.example", ADMIN_PASSWORD],
    ]) {
      const response = await fetch(`${base}/api/v1/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: string }).error).toBe("SS_CONSOLE_BAD_CREDENTIALS");
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    const ok = await fetch(`${base}/api/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ADMIN_EMAIL.toUpperCase(), password: ADMIN_PASSWORD }),
    });
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^ss_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const body = (await ok.json()) as { operator: Record<string, unknown>; csrfToken: string };
    expect(body.operator).toMatchObject({ email: ADMIN_EMAIL, name: "Ada Admin" });
    expect(body.operator).not.toHaveProperty("passwordHash");
    expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("rate-limits logins per e-mail and address: the 11th attempt in 15 minutes gets 429 with Retry-After", async () => {
    const attempt = () =>
      fetch(`${base}/api/v1/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "target@shop.example", password: "guess guess guess" }),
      });
    for (let i = 0; i < 10; i += 1) expect((await attempt()).status).toBe(401);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: string }).error).toBe("SS_CONSOLE_LOGIN_RATE_LIMITED");
    // Another e-mail from the same address is not locked out by it.
    expect((await logIn(base, ADMIN_EMAIL, ADMIN_PASSWORD)).csrfToken).toBeTruthy();
  });

  it("refuses a state-changing request on the session cookie without its CSRF token, or from another origin", async () => {
    const noToken = await fetch(`${base}/api/v1/tokens`, {
      method: "POST",
      headers: { cookie: admin.cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: "x" }),
    });
    expect(noToken.status).toBe(403);
    expect(((await noToken.json()) as { error: string }).error).toBe("SS_CONSOLE_CSRF");
    const wrongToken = await admin.request(
      "POST",
      "/api/v1/tokens",
      { name: "x" },
      { "x-csrf-token": "nope" },
    );
    expect(wrongToken.status).toBe(403);
    const otherOrigin = await admin.request(
      "POST",
      "/api/v1/tokens",
      { name: "x" },
      { origin: "https://evil.example" },
    );
    expect(otherOrigin.status).toBe(403);
    // Reads need no CSRF token.
    expect((await admin.request("GET", "/api/v1/tenants")).status).toBe(200);
  });

  it("serves API tokens to scripts: Bearer works without a cookie or CSRF token, until revoked", async () => {
    const created = await admin.json<{ token: string; apiToken: { id: string } }>("POST", "/api/v1/tokens", {
      name: "nightly export",
    });
    expect(created.token).toMatch(/^sst_/);
    const bearer = { authorization: `Bearer ${created.token}` };
    expect((await fetch(`${base}/api/v1/conversations`, { headers: bearer })).status).toBe(200);
    const note = await fetch(`${base}/api/v1/tokens`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ name: "child" }),
    });
    expect(note.status).toBe(201);
    const listed = await admin.json<{ items: { id: string; lastUsedAt?: number }[] }>(
      "GET",
      "/api/v1/tokens",
    );
    expect(listed.items.find((token) => token.id === created.apiToken.id)?.lastUsedAt).toBeGreaterThan(0);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect((await admin.request("DELETE", `/api/v1/tokens/${created.apiToken.id}`)).status).toBe(204);
    expect((await fetch(`${base}/api/v1/conversations`, { headers: bearer })).status).toBe(401);
  });

  it("never shows an agent another tenant's conversations: not in lists, not by key, not in the event stream", async () => {
    await admin.json("POST", "/api/v1/operators", {
      email: "bola@bank.example",
      name: "Bola",
      password: "bank agent password",
      grants: [{ tenantId: "bank", role: "agent" }],
    });
    const agent = await logIn(base, "bola@bank.example", "bank agent password");
    const tenants = await agent.json<{ items: { id: string; role: string }[] }>("GET", "/api/v1/tenants");
    expect(tenants.items).toEqual([expect.objectContaining({ id: "bank", role: "agent" })]);

    const stream = await openEventStream(base, agent.cookie);
    expect(stream.contentType).toMatch(/text\/event-stream/);

    const shop = await admin.json<{ conversationKey: string }>("POST", "/api/v1/simulator/messages", {
      tenant: "shop",
      from: "2348011110000",
      text: "hello shop",
    });
    const bank = await admin.json<{ conversationKey: string }>("POST", "/api/v1/simulator/messages", {
      tenant: "bank",
      from: "2348022220000",
      text: "hello bank",
    });
    await eventually(
      async () => (stream.text().includes(bank.conversationKey) ? true : undefined),
      5000,
      "the bank event",
    );
    await eventually(
      async () => {
        const list = await admin.json<{ items: { conversationKey: string }[] }>(
          "GET",
          "/api/v1/conversations",
        );
        return list.items.some((item) => item.conversationKey === shop.conversationKey) ? true : undefined;
      },
      5000,
      "the shop conversation",
    );
    expect(stream.text()).not.toContain(shop.conversationKey);
    await stream.close();

    const list = await agent.json<{ items: { tenantId: string }[] }>("GET", "/api/v1/conversations");
    expect(list.items.length).toBeGreaterThan(0);
    expect(list.items.every((item) => item.tenantId === "bank")).toBe(true);
    const searched = await agent.json<{ items: unknown[] }>("GET", "/api/v1/conversations?q=hello%20shop");
    expect(searched.items).toEqual([]);
    const key = encodeURIComponent(shop.conversationKey);
    for (const [method, path, body] of [
      ["GET", `/api/v1/conversations/${key}`, undefined],
      ["GET", `/api/v1/conversations/${key}/messages`, undefined],
      ["POST", `/api/v1/conversations/${key}/takeover`, {}],
      ["POST", `/api/v1/conversations/${key}/reply`, { text: "hi" }],
      ["POST", `/api/v1/conversations/${key}/notes`, { text: "hi" }],
      ["GET", "/api/v1/conversations?tenant=shop", undefined],
      ["GET", "/api/v1/metrics?tenant=shop", undefined],
      ["GET", "/api/v1/tenants/shop/templates", undefined],
      ["GET", "/api/v1/tenants/shop/operators", undefined],
    ] as const) {
      const response = await agent.request(method, path, body);
      expect(`${method} ${path}: ${response.status}`).toBe(`${method} ${path}: 404`);
    }
    const operators = await agent.request("GET", "/api/v1/operators");
    expect(operators.status).toBe(403);
  });

  it("describes every route in an OpenAPI 3.1 document that real answers validate against", async () => {
    expect(openapi.openapi).toBe("3.1.0");
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const check = async (method: string, docPath: string, url: string, status = 200) => {
      const response = await admin.request(method.toUpperCase(), url);
      expect(response.status).toBe(status);
      const schema =
        openapi.paths[docPath]?.[method]?.responses[String(status)]?.content?.["application/json"]?.schema;
      expect(schema, `${method} ${docPath} documents ${status}`).toBeDefined();
      const validate = ajv.compile({ ...(schema as object), components: openapi.components });
      const body = await response.json();
      expect(validate(body), `${method} ${docPath}: ${JSON.stringify(validate.errors)}`).toBe(true);
      return body as Record<string, unknown>;
    };
    await check("get", "/api/v1/session", "/api/v1/session");
    await check("get", "/api/v1/tenants", "/api/v1/tenants");
    const list = (await check("get", "/api/v1/conversations", "/api/v1/conversations")) as {
      items: { conversationKey: string }[];
    };
    const key = encodeURIComponent(list.items[0]?.conversationKey as string);
    await check("get", "/api/v1/conversations/{key}", `/api/v1/conversations/${key}`);
    await check(
      "get",
      "/api/v1/conversations/{key}/messages",
      `/api/v1/conversations/${key}/messages?limit=1`,
    );
    await check("get", "/api/v1/metrics", "/api/v1/metrics");
    await check("get", "/api/v1/tenants/{tenant}/templates", "/api/v1/tenants/shop/templates");
    await check("get", "/api/v1/operators", "/api/v1/operators");
    await check("get", "/api/v1/tokens", "/api/v1/tokens");
  });

  it("ends a session at logout: the same cookie then opens nothing", async () => {
    const client = await logIn(base, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await client.request("GET", "/api/v1/session")).status).toBe(200);
    const out = await client.request("DELETE", "/api/v1/session");
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/ss_session=;/);
    expect((await client.request("GET", "/api/v1/session")).status).toBe(401);
    expect((await client.request("GET", "/api/v1/conversations")).status).toBe(401);
  });

  it("answers a malformed request with 400 and the field at fault", async () => {
    const bad = await admin.request("POST", "/api/v1/simulator/messages", {
      tenant: "shop",
      from: "abc",
      text: "x",
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: "SS_CONSOLE_INVALID_REQUEST",
      message: expect.stringMatching(/^from:/),
    });
    const notJson = await admin.request("POST", "/api/v1/tokens", undefined, {
      "content-type": "application/json",
    });
    expect(notJson.status).toBe(400);
    const unknown = await admin.request("GET", "/api/v1/nothing-here");
    expect(unknown.status).toBe(404);
  });
});
