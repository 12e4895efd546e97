import { describe, expect, it } from "vitest";
import { parseTenantTools } from "./tool-config.js";

const SECRETS: Record<string, string> = { MAMAPUT_API_KEY: "k-123" };
const readSecret = (name: string) => SECRETS[name];

// The tools of the tenants file example in docs/agent.md.
const DESIGN_EXAMPLE = [
  {
    name: "get_order_status",
    description: "Status of the customer's most recent orders.",
    parameters: { type: "object", properties: { orderId: { type: "string" } } },
    method: "GET",
    url: "https://api.mamaput.example/orders/status",
    headers: { Authorization: { env: "MAMAPUT_API_KEY", prefix: "Bearer " } },
    timeoutMs: 5000,
  },
  {
    name: "refund_order",
    description: "Refund an order to the customer's original payment method.",
    parameters: { type: "object", required: ["orderId"], properties: { orderId: { type: "string" } } },
    method: "POST",
    url: "https://api.mamaput.example/refunds",
    sideEffects: true,
    confirm: true,
  },
];

const tool = (fields: Record<string, unknown>) => ({
  name: "get_order_status",
  description: "Status of the customer's orders.",
  url: "https://api.mamaput.example/orders",
  ...fields,
});

function problemsOf(...tools: unknown[]): string[] {
  return parseTenantTools(tools, readSecret).problems;
}

describe("parseTenantTools", () => {
  it("reads the docs/agent.md example, resolving the header secret and filling in the defaults", () => {
    const { tools, problems } = parseTenantTools(DESIGN_EXAMPLE, readSecret);
    expect(problems).toEqual([]);
    expect(tools).toEqual([
      {
        ...DESIGN_EXAMPLE[0],
        headers: { Authorization: "Bearer k-123" },
        maxResponseBytes: 65_536,
        sideEffects: false,
        confirm: false,
        allowNetworks: [],
      },
      {
        ...DESIGN_EXAMPLE[1],
        headers: {},
        timeoutMs: 5000,
        maxResponseBytes: 65_536,
        sideEffects: true,
        confirm: true,
        allowNetworks: [],
      },
    ]);
    expect(Object.isFrozen(tools[0])).toBe(true);
    expect(Object.isFrozen(tools[0]?.parameters)).toBe(true);
  });

  it("defaults a minimal tool to GET, no parameters, no headers, no side effects", () => {
    const { tools } = parseTenantTools([tool({})], readSecret);
    expect(tools[0]).toMatchObject({
      method: "GET",
      parameters: { type: "object", properties: {} },
      headers: {},
      timeoutMs: 5000,
      maxResponseBytes: 65_536,
      sideEffects: false,
      confirm: false,
    });
  });

  it("treats no tools as none, and a non-list as a problem", () => {
    expect(parseTenantTools(undefined, readSecret)).toEqual({ tools: [], problems: [] });
    expect(parseTenantTools({ name: "x" }, readSecret).problems).toEqual(["tools: must be a list of tools"]);
  });

  it("makes a confirm tool a side-effect tool, and refuses confirm with sideEffects: false", () => {
    expect(parseTenantTools([tool({ confirm: true })], readSecret).tools[0]?.sideEffects).toBe(true);
    expect(problemsOf(tool({ confirm: true, sideEffects: false }))).toEqual([
      expect.stringMatching(/^tools\.0 \(get_order_status\)\.sideEffects: /),
    ]);
  });

  it("names the tool and the header when a header's environment variable is not set, without any secret", () => {
    const { tools, problems } = parseTenantTools(
      [
        tool({ headers: { Authorization: { env: "MAMAPUT_API_KEY", prefix: "Bearer " } } }),
        tool({ name: "refund_order", headers: { "X-Api-Key": { env: "MAMAPUT_REFUND_KEY" } } }),
      ],
      readSecret,
    );
    expect(problems).toEqual([
      "tools.1 (refund_order).headers.X-Api-Key.env: names MAMAPUT_REFUND_KEY, which is not set in the environment",
    ]);
    expect(tools.map((t) => t.name)).toEqual(["get_order_status"]);
  });

  it("treats an empty or blank secret as unset, and trims one", () => {
    const secrets: Record<string, string> = { EMPTY: " ", PADDED: " abc\n" };
    const parsed = parseTenantTools(
      [
        tool({ headers: { "X-Api-Key": { env: "EMPTY" } } }),
        tool({ name: "t2", headers: { "X-Api-Key": { env: "PADDED" } } }),
      ],
      (name) => secrets[name],
    );
    expect(parsed.problems).toEqual([expect.stringContaining("names EMPTY, which is not set")]);
    expect(parsed.tools[0]?.headers).toEqual({ "X-Api-Key": "abc" });
  });

  it.each(["handoff_to_human", "lookup_knowledge"])("refuses the built-in name %s", (name) => {
    expect(problemsOf(tool({ name }))).toEqual([
      `tools.0 (${name}).name: "${name}" is a built-in tool of the agent; choose another name`,
    ]);
  });

  it("refuses a name used twice, naming the first", () => {
    expect(problemsOf(tool({}), tool({ url: "https://other.example/" }))).toEqual([
      'tools.1 (get_order_status).name: "get_order_status" is already the name of tools.0',
    ]);
  });

  it.each([
    "X-Sharpsharp-Customer",
    "x-sharpsharp-tenant",
    "X-SHARPSHARP-ANYTHING",
    "Idempotency-Key",
    "idempotency-key",
  ])("refuses the gateway's header %s", (name) => {
    expect(problemsOf(tool({ headers: { [name]: "2349099999999" } }))).toEqual([
      `tools.0 (get_order_status).headers.${name}: X-Sharpsharp-* and Idempotency-Key are set by the gateway itself on every call`,
    ]);
  });

  it("refuses headers the HTTP client owns, bad names, twice-given names and secrets written in the file", () => {
    const problems = problemsOf(
      tool({
        headers: {
          "Content-Length": "10",
          Host: "evil.example",
          "Bad Header": "x",
          "X-Shop": "a",
          "x-shop": "b",
          Authorization: "Bearer written-in-the-file",
          "X-Auth-Token": "written-in-the-file",
        },
      }),
    );
    expect(
      problems.map((problem) => problem.replace(/^tools\.0 \(get_order_status\)\.headers\./, "")),
    ).toEqual([
      "Content-Length: is set by the HTTP client; remove it",
      "Host: is set by the HTTP client; remove it",
      "Bad Header: is not a valid HTTP header name",
      "x-shop: is given twice (header names are case-insensitive)",
      "Authorization: looks like a secret, which is never written in the file; use { env: VARIABLE_NAME }",
      "X-Auth-Token: looks like a secret, which is never written in the file; use { env: VARIABLE_NAME }",
    ]);
    expect(problems.join("\n")).not.toContain("written-in-the-file");
  });

  it("refuses a secret with a line break without printing it", () => {
    const { problems } = parseTenantTools(
      [tool({ headers: { "X-Api-Key": { env: "SPLIT" } } })],
      () => "a\nb-secret",
    );
    expect(problems).toEqual([
      "tools.0 (get_order_status).headers.X-Api-Key: holds a line break or NUL character",
    ]);
  });

  it("reports every problem of every tool at once, with its path", () => {
    const problems = problemsOf(
      { name: "has space", description: "", url: "ftp://x.example/", method: "get", timeoutMs: 50 },
      tool({ maxResponseBytes: 2 * 1024 * 1024, timeoutMs: 60_001, timeout: 10 }),
      tool({ name: "creds", url: "https://user:pw@api.example/" }),
      tool({ name: "relative", url: "/orders" }),
      "not a tool",
    );
    const paths = problems.map((problem) => problem.split(":")[0]);
    expect(paths).toEqual([
      "tools.0 (has space).name",
      "tools.0 (has space).description",
      "tools.0 (has space).method",
      "tools.0 (has space).url",
      "tools.0 (has space).timeoutMs",
      "tools.1 (get_order_status).timeoutMs",
      "tools.1 (get_order_status).maxResponseBytes",
      "tools.1 (get_order_status)",
      "tools.2 (creds).url",
      "tools.3 (relative).url",
      "tools.4",
    ]);
    expect(problems.find((problem) => problem.startsWith("tools.1 (get_order_status):"))).toContain(
      "timeout",
    );
    expect(problems.join("\n")).not.toContain("pw@");
  });

  it("refuses a URL whose address is loopback, private, link-local or metadata unless allowNetworks covers it", () => {
    const urls = [
      "http://127.0.0.1:8080/orders",
      "http://[::1]/orders",
      "http://[::ffff:127.0.0.1]/orders",
      "http://10.0.0.5/orders",
      "http://169.254.169.254/latest/meta-data/",
      "http://0.0.0.0/",
    ];
    const problems = problemsOf(...urls.map((url, i) => tool({ name: `t${i}`, url })));
    expect(problems).toEqual([
      "tools.0 (t0).url: 127.0.0.1 is a loopback address; list it in allowNetworks if the tool really runs there",
      "tools.1 (t1).url: ::1 is a loopback address; list it in allowNetworks if the tool really runs there",
      "tools.2 (t2).url: ::ffff:7f00:1 is a loopback address; list it in allowNetworks if the tool really runs there",
      "tools.3 (t3).url: 10.0.0.5 is a private-network address; list it in allowNetworks if the tool really runs there",
      "tools.4 (t4).url: 169.254.169.254 is a cloud metadata address; list it in allowNetworks if the tool really runs there",
      "tools.5 (t5).url: 0.0.0.0 is an unspecified address; list it in allowNetworks if the tool really runs there",
    ]);
    const allowed = parseTenantTools(
      [
        tool({ url: "http://127.0.0.1:8080/orders", allowNetworks: ["127.0.0.0/8"] }),
        tool({ name: "t1", url: "http://[::1]/orders", allowNetworks: [" ::1 "] }),
        tool({ name: "t2", url: "http://10.0.0.5/orders", allowNetworks: ["10.0.0.0/8"] }),
      ],
      readSecret,
    );
    expect(allowed.problems).toEqual([]);
    expect(allowed.tools.map((t) => t.allowNetworks)).toEqual([["127.0.0.0/8"], ["::1"], ["10.0.0.0/8"]]);
  });

  it("leaves a host name to be judged at each call, after DNS", () => {
    expect(problemsOf(tool({ url: "http://localhost:8080/orders" }))).toEqual([]);
  });

  it("refuses an allowNetworks entry that is not an address or CIDR, naming it", () => {
    expect(problemsOf(tool({ allowNetworks: ["10.0.0.0/8", "intranet.example", "10.0.0.0/40"] }))).toEqual([
      'tools.0 (get_order_status).allowNetworks.1: "intranet.example" is not an IP address or CIDR (10.0.0.0/8, 127.0.0.1, fd00::/8)',
      'tools.0 (get_order_status).allowNetworks.2: "10.0.0.0/40": the prefix length must be 0–32',
    ]);
    expect(problemsOf(tool({ allowNetworks: "10.0.0.0/8" }))[0]).toMatch(
      /^tools\.0 \(get_order_status\)\.allowNetworks: /,
    );
  });

  it("limits description length to 1024 and name length to 64", () => {
    expect(problemsOf(tool({ description: "d".repeat(1024), name: "n".repeat(64) }))).toEqual([]);
    expect(problemsOf(tool({ description: "d".repeat(1025) }))).toHaveLength(1);
    expect(problemsOf(tool({ name: "n".repeat(65) }))).toHaveLength(1);
  });

  it.each([
    ["a non-object schema", { type: "array", items: { type: "string" } }, "parameters.type"],
    ["an invalid JSON schema", { type: "object", required: "orderId" }, "parameters"],
    [
      "an unresolvable $ref",
      { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
      "parameters",
    ],
    ["a top-level anyOf", { type: "object", anyOf: [{ required: ["a"] }] }, "parameters.anyOf"],
    [
      "additionalProperties other than false",
      { type: "object", properties: { meta: { type: "object", additionalProperties: { type: "string" } } } },
      "parameters.properties.meta.additionalProperties",
    ],
  ])("refuses %s as parameters", (_case, parameters, path) => {
    const problems = problemsOf(tool({ parameters }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.split(":")[0]).toBe(`tools.0 (get_order_status).${path}`);
  });

  it("accepts schemas written for an LLM provider, with keywords ajv does not know", () => {
    const parameters = {
      type: "object",
      additionalProperties: false,
      properties: { date: { type: "string", format: "date", example: "2025-01-31" } },
    };
    expect(problemsOf(tool({ parameters }))).toEqual([]);
  });
});
