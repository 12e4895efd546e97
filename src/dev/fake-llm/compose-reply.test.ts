import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { composeReply } from "./compose-reply.js";
import { compileRules, type FakeLlmRule } from "./rules.js";
import { validateChatRequest } from "./validate-chat-request.js";

const tool = (name: string) => ({ type: "function", function: { name, parameters: { type: "object" } } });

function answer(rules: FakeLlmRule[], body: Record<string, unknown>) {
  return composeReply(validateChatRequest({ model: "m", ...body }), compileRules(rules));
}

const user = (content: string) => ({ role: "user", content });
/** A conversation whose last message is the result of `name`. */
function afterCall(name: string, result: string, question = "where my order?") {
  return [
    user(question),
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "call_1", content: result },
  ];
}

const RULES: FakeLlmRule[] = [
  { when: { afterTool: "get_order_status" }, reply: { content: "Your order: {{toolResult}}" } },
  {
    when: { lastUser: "order|delivery", toolOffered: "get_order_status" },
    reply: { toolCalls: [{ name: "get_order_status", arguments: { query: "{{lastUser}}" } }] },
  },
  { when: { lastUser: "^(hi|hello)\\b" }, reply: { content: "How far! You said {{lastUser}}" } },
];

describe("composeReply: scripted rules", () => {
  it("matches lastUser case-insensitively, first match wins, placeholders filled", () => {
    const reply = answer(RULES, { messages: [user("HELLO there")] });
    expect(reply).toMatchObject({ content: "How far! You said HELLO there", finishReason: "stop", rule: 2 });
  });

  it("calls a tool only when it is offered, passing the customer's words in its arguments", () => {
    const offered = answer(RULES, {
      messages: [user("Where is my ORDER?")],
      tools: [tool("get_order_status")],
    });
    expect(offered).toMatchObject({
      content: null,
      finishReason: "tool_calls",
      rule: 1,
      toolCalls: [{ name: "get_order_status", arguments: JSON.stringify({ query: "Where is my ORDER?" }) }],
    });
    const notOffered = answer(RULES, { messages: [user("Where is my ORDER?")], tools: [tool("other")] });
    expect(notOffered).toMatchObject({ content: "(fake LLM) You said: Where is my ORDER?", rule: "default" });
  });

  it("answers a tool result with its afterTool rule, never with a rule meant for the customer's message", () => {
    const tools = [tool("get_order_status")];
    expect(answer(RULES, { messages: afterCall("get_order_status", "shipped"), tools })).toMatchObject({
      content: "Your order: shipped",
      rule: 0,
    });
    // Without the afterTool rule, the lastUser rule that made the call must not match again (no loop).
    expect(
      answer(RULES.slice(1), { messages: afterCall("get_order_status", "shipped"), tools }),
    ).toMatchObject({
      content: "Here is what I found: shipped",
      rule: "default",
    });
    // An afterTool rule for another tool does not match.
    expect(answer(RULES, { messages: afterCall("lookup_knowledge", "8am-9pm"), tools })).toMatchObject({
      rule: "default",
    });
  });

  it("`always` matches at any point; conditions of one rule must all hold", () => {
    const rules: FakeLlmRule[] = [
      { when: { lastUser: "refund", afterTool: "get_order_status" }, reply: { content: "refund path" } },
      { when: { always: true }, reply: { content: "always" } },
    ];
    expect(answer(rules, { messages: afterCall("get_order_status", "x", "I want a refund") }).content).toBe(
      "refund path",
    );
    expect(answer(rules, { messages: afterCall("get_order_status", "x", "where is it") }).content).toBe(
      "always",
    );
    expect(answer(rules, { messages: [user("anything")] }).content).toBe("always");
  });

  it("quotes at most 500 characters of a tool result by default", () => {
    const reply = answer([], { messages: afterCall("t", "é".repeat(800)) });
    expect(reply.content).toBe(`Here is what I found: ${"é".repeat(500)}`);
  });

  it("follows tool_choice: none skips tool calls; required or a named tool forces one", () => {
    const tools = [tool("get_order_status"), tool("refund_order")];
    const orderMessage = [user("my order?")];
    expect(answer(RULES, { messages: orderMessage, tools, tool_choice: "none" }).rule).toBe("default");
    expect(answer([], { messages: [user("x")], tools, tool_choice: "required" })).toMatchObject({
      rule: "forced",
      toolCalls: [{ name: "get_order_status", arguments: "{}" }],
      finishReason: "tool_calls",
    });
    const named = { type: "function", function: { name: "refund_order" } };
    // The rule calls get_order_status, which tool_choice rules out: the named tool is called instead.
    expect(answer(RULES, { messages: orderMessage, tools, tool_choice: named })).toMatchObject({
      rule: "forced",
      toolCalls: [{ name: "refund_order" }],
    });
  });

  it("cuts content at max_tokens × 4 characters with finish_reason length", () => {
    const reply = answer([], { messages: [user("a".repeat(100))], max_completion_tokens: 5 });
    expect(reply).toMatchObject({ content: "(fake LLM) You said:", finishReason: "length" });
  });
});

describe("compileRules", () => {
  it("reports every problem with its place, and takes { rules: [...] } as well as a list", () => {
    expect(compileRules({ rules: RULES })).toHaveLength(3);
    let problems: readonly string[] = [];
    try {
      compileRules([
        { when: {}, reply: { content: "x" } },
        { when: { lastUser: "(" }, reply: { content: "x" } },
        { when: { always: true }, reply: { toolCalls: [] } },
      ]);
    } catch (error) {
      problems = (error as { problems: readonly string[] }).problems;
    }
    expect(problems.join("\n")).toMatch(/rules\[0\]\.when: needs at least one condition/);
    expect(problems.join("\n")).toMatch(/rules\[2\]/);
    expect(() => compileRules([{ when: { lastUser: "(" }, reply: { content: "x" } }])).toThrow(
      /rules\[0\]\.when\.lastUser is not a valid regular expression/,
    );
  });
});

describe("composeReply: images and structured output", () => {
  const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
  const sha = createHash("sha256").update(png).digest("hex");
  const withImage = [
    {
      role: "user",
      content: [
        { type: "text", text: "see my payment" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } },
      ],
    },
  ];
  const schema = {
    type: "object",
    additionalProperties: false,
    required: ["isReceipt", "reference"],
    properties: { isReceipt: { type: "boolean" }, reference: { type: ["string", "null"] } },
  };
  const format = { type: "json_schema", json_schema: { name: "receipt_reading", schema, strict: true } };
  const scripted: FakeLlmRule[] = [
    { when: { imageSha256: "0".repeat(64) }, reply: { json: { isReceipt: false, reference: null } } },
    {
      when: { imageSha256: sha.toUpperCase(), responseFormat: "receipt_reading" },
      reply: { json: { isReceipt: true, reference: "TRX123" } },
    },
  ];

  it("answers the rule keyed on the image's sha256 and the schema's name with its JSON", () => {
    const reply = answer(scripted, { messages: withImage, response_format: format });
    expect(reply).toMatchObject({ finishReason: "stop", rule: 1 });
    expect(JSON.parse(reply.content ?? "")).toEqual({ isReceipt: true, reference: "TRX123" });
  });

  it("answers the plainest valid object when no rule matches", () => {
    const reply = answer(scripted.slice(0, 1), { messages: withImage, response_format: format });
    expect(reply.rule).toBe("default");
    expect(JSON.parse(reply.content ?? "")).toEqual({ isReceipt: false, reference: null });
    expect(
      answer([], { messages: [user("reply in json")], response_format: { type: "json_object" } }).content,
    ).toBe("{}");
  });

  it("cuts a JSON answer at max tokens, as a real model does (finish_reason length)", () => {
    const reply = answer(scripted, { messages: withImage, response_format: format, max_tokens: 2 });
    expect(reply).toMatchObject({ finishReason: "length", content: '{"isRece' });
  });
});
