import { afterEach, describe, expect, it } from "vitest";
import type { FakeLlmRule } from "../../src/dev/index.js";
import { LLM_KEY, tool, trackFakeLlms, userSays } from "../support/fake-llm.js";

const fake = trackFakeLlms(afterEach);

const RULES: FakeLlmRule[] = [
  {
    when: { afterTool: "get_order_status" },
    reply: { content: "Your order {{toolResult}}. Anything else?" },
  },
  {
    when: { lastUser: "order", toolOffered: "get_order_status" },
    reply: { toolCalls: [{ name: "get_order_status", arguments: { orderId: "A1" } }] },
  },
  { when: { lastUser: "^hi\\b" }, reply: { content: "How far! Wetin I fit do for you?" } },
];

describe("fake LLM: chat completions over HTTP", () => {
  it("answers in OpenAI's shape, on /v1/chat/completions and /chat/completions", async () => {
    const f = await fake({}, { now: () => 1_790_000_000_123 });
    for (const path of ["/v1/chat/completions", "/chat/completions"]) {
      const answer = await f.chat(userSays("abeg help"), { path });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
      expect(answer.json).toMatchObject({
        object: "chat.completion",
        created: 1_790_000_000,
        model: "gpt-4o-mini",
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: "(fake LLM) You said: abeg help" },
            finish_reason: "stop",
          },
        ],
      });
      expect(answer.json.id).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/);
      expect(answer.json.choices?.[0]?.message.tool_calls).toBeUndefined();
    }
  });

  it("runs the tool round trip: tool call, then the tool's result, then the final answer", async () => {
    const f = await fake({ rules: RULES });
    const tools = [tool("get_order_status"), tool("lookup_knowledge")];
    const messages: unknown[] = [
      { role: "system", content: "You are Ada." },
      { role: "user", content: "Where is my order?" },
    ];
    const first = await f.chat({ model: "gpt-4o-mini", messages, tools });
    expect(first.json.choices?.[0]?.finish_reason).toBe("tool_calls");
    const message = first.json.choices?.[0]?.message;
    expect(message?.content).toBeNull();
    const call = message?.tool_calls?.[0];
    expect(call).toMatchObject({
      type: "function",
      function: { name: "get_order_status", arguments: '{"orderId":"A1"}' },
    });
    expect(call?.id).toMatch(/^call_[A-Za-z0-9]{24}$/);

    messages.push(message, { role: "tool", tool_call_id: call?.id, content: "don ship, e go land tomorrow" });
    const second = await f.chat({ model: "gpt-4o-mini", messages, tools });
    expect(second.json.choices?.[0]).toMatchObject({
      finish_reason: "stop",
      message: { role: "assistant", content: "Your order don ship, e go land tomorrow. Anything else?" },
    });
    expect(f.fake.requests().map((r) => r.rule)).toEqual([1, 0]);

    // The same question with the tool not offered: no tool call; a greeting rule matches on its own.
    expect((await f.chat(userSays("Where is my order?"))).json.choices?.[0]?.message.content).toBe(
      "(fake LLM) You said: Where is my order?",
    );
    expect((await f.chat(userSays("Hi there"))).json.choices?.[0]?.message.content).toBe(
      "How far! Wetin I fit do for you?",
    );
  });

  it("reports usage that grows with the prompt", async () => {
    const f = await fake();
    const usages = [];
    for (const size of [10, 400, 4000]) {
      const answer = await f.chat(userSays("x".repeat(size)));
      usages.push(answer.json.usage);
    }
    expect(usages[0]).toEqual({ prompt_tokens: 3 + 3, completion_tokens: 8, total_tokens: 14 });
    expect(usages[1]?.prompt_tokens).toBe(100 + 3);
    expect(usages[2]?.prompt_tokens).toBe(1000 + 3);
    const withTools = await f.chat(userSays("x".repeat(10), { tools: [tool("get_order_status")] }));
    expect(withTools.json.usage?.prompt_tokens).toBeGreaterThan(usages[0]?.prompt_tokens ?? 0);
  });

  it("answers invalid requests 400 in OpenAI's error shape", async () => {
    const f = await fake();
    const cases: [unknown, string | null][] = [
      [{ messages: [{ role: "user", content: "hi" }] }, null],
      [{ model: "m" }, "messages"],
      [
        {
          model: "m",
          messages: [
            { role: "user", content: "hi" },
            { role: "tool", tool_call_id: "x", content: "r" },
          ],
        },
        "messages.[1].role",
      ],
      [userSays("hi", { stream: true }), "stream"],
      ["{not json", null],
    ];
    for (const [body, param] of cases) {
      const answer = await f.chat(body);
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ type: "invalid_request_error", param });
      expect(Object.keys(answer.json.error ?? {}).sort()).toEqual(["code", "message", "param", "type"]);
    }
    expect((await f.chat(userSays("hi", { stream: true }))).json.error?.message).toBe(
      "streaming is not supported by the fake",
    );
    const unknown = await fetch(`${f.url}/v1/embeddings`, { method: "POST", body: "{}" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { message: "Invalid URL (POST /v1/embeddings)" } });
  });

  it("with an API key, refuses a missing or wrong key 401 and records no key", async () => {
    const f = await fake({ apiKey: LLM_KEY });
    const missing = await f.chat(userSays("hi"), { key: null });
    expect(missing.status).toBe(401);
    expect(missing.json.error).toMatchObject({ type: "invalid_request_error", code: null });
    const wrong = await f.chat(userSays("hi"), { key: "sk-wrong" });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error?.code).toBe("invalid_api_key");
    expect(JSON.stringify(wrong.json)).not.toContain("sk-wrong");
    expect((await f.chat(userSays("hi"))).status).toBe(200);

    const records = f.fake.requests();
    expect(records.map((r) => r.status)).toEqual([401, 401, 200]);
    expect(records[2]).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      body: userSays("hi"),
      outcome: "answered",
      rule: "default",
    });
    expect(records[2]?.headers.authorization).toBe("[redacted]");
    expect(JSON.stringify(records)).not.toContain(LLM_KEY);
    expect(JSON.stringify(records)).not.toContain("sk-wrong");
  });

  it("changes rules and faults at run time, in code and over /_fake, and resets to how it started", async () => {
    const f = await fake({ rules: [{ when: { always: true }, reply: { content: "first" } }] });
    f.fake.setRules([{ when: { always: true }, reply: { content: "second" } }]);
    expect((await f.chat(userSays("x"))).json.choices?.[0]?.message.content).toBe("second");

    const put = (body: unknown) =>
      fetch(`${f.url}/_fake/rules`, { method: "PUT", body: JSON.stringify(body) }).then(async (r) => ({
        status: r.status,
        json: (await r.json()) as { rules?: number; message?: string },
      }));
    expect(await put({ rules: [{ when: { lastUser: "x" }, reply: { content: "third" } }] })).toEqual({
      status: 200,
      json: { rules: 1 },
    });
    expect((await f.chat(userSays("x"))).json.choices?.[0]?.message.content).toBe("third");
    const refused = await put([{ when: { lastUser: "(" }, reply: { content: "x" } }]);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/rules\[0\]\.when\.lastUser/);
    expect(() => f.fake.setRules([{ when: {}, reply: { content: "x" } }])).toThrow(
      /needs at least one condition/,
    );

    const faults = await fetch(`${f.url}/_fake/faults`, {
      method: "POST",
      body: JSON.stringify({ failNext: { count: 1, status: 503 } }),
    });
    expect(await faults.json()).toMatchObject({ failNext: { count: 1, status: 503 } });
    expect((await f.chat(userSays("x"))).status).toBe(503);
    const badPatch = await fetch(`${f.url}/_fake/faults`, { method: "POST", body: '{"errorRate": 5}' });
    expect(badPatch.status).toBe(400);

    const listed = (await (await fetch(`${f.url}/_fake/requests`)).json()) as { status: number }[];
    expect(listed.map((r) => r.status)).toEqual([200, 200, 503]);
    expect((await fetch(`${f.url}/_fake/reset`, { method: "POST" })).status).toBe(200);
    expect(f.fake.requests()).toEqual([]);
    expect((await f.chat(userSays("x"))).json.choices?.[0]?.message.content).toBe("first");
  });
});
