import { describe, expect, it } from "vitest";
import { refusal } from "./refusal.test-support.js";
import { validateChatRequest } from "./validate-chat-request.js";

const user = { role: "user", content: "hi" };
const call = (id: string, name = "get_order_status") => ({
  id,
  type: "function",
  function: { name, arguments: '{"orderId":"A1"}' },
});
const tools = [{ type: "function", function: { name: "get_order_status", parameters: { type: "object" } } }];

describe("validateChatRequest: what OpenAI refuses", () => {
  it("needs a model and a non-empty messages array", () => {
    expect(refusal({ messages: [user] }).message).toBe("you must provide a model parameter");
    expect(refusal({ model: "m" })).toEqual({
      message: "Missing required parameter: 'messages'.",
      param: "messages",
      code: "missing_required_parameter",
    });
    expect(refusal({ model: "m", messages: [] }).code).toBe("empty_array");
    expect(refusal({ model: "m", messages: [{ role: "robot", content: "x" }] }).param).toBe(
      "messages[0].role",
    );
    expect(refusal({ model: "m", messages: [{ role: "user" }] }).param).toBe("messages[0].content");
  });

  it("refuses streaming, several choices and unknown arguments", () => {
    expect(refusal({ model: "m", messages: [user], stream: true })).toMatchObject({
      message: "streaming is not supported by the fake",
      param: "stream",
    });
    expect(refusal({ model: "m", messages: [user], n: 2 }).param).toBe("n");
    expect(refusal({ model: "m", messages: [user], max_token: 5 }).message).toBe(
      "Unrecognized request argument supplied: max_token",
    );
  });

  it("checks ranges and types of numbers", () => {
    expect(refusal({ model: "m", messages: [user], temperature: 3 }).param).toBe("temperature");
    expect(refusal({ model: "m", messages: [user], temperature: "hot" }).code).toBe("invalid_type");
    expect(refusal({ model: "m", messages: [user], max_tokens: 0 }).param).toBe("max_tokens");
    expect(refusal({ model: "m", messages: [user], max_completion_tokens: 1.5 }).code).toBe("invalid_type");
  });

  it("checks tools and tool_choice", () => {
    expect(refusal({ model: "m", messages: [user], tools: [{ type: "code" }] }).param).toBe("tools[0].type");
    const badName = [{ type: "function", function: { name: "get order" } }];
    expect(refusal({ model: "m", messages: [user], tools: badName }).param).toBe("tools[0].function.name");
    expect(refusal({ model: "m", messages: [user], tool_choice: "auto" }).param).toBe("tool_choice");
    const unknown = { type: "function", function: { name: "refund_order" } };
    expect(refusal({ model: "m", messages: [user], tools, tool_choice: unknown }).param).toBe("tool_choice");
  });

  it("needs every tool message to answer a call of the assistant message just before it", () => {
    const orphan = [user, { role: "tool", tool_call_id: "call_x", content: "r" }];
    expect(refusal({ model: "m", messages: orphan })).toEqual({
      message:
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      param: "messages.[1].role",
      code: null,
    });
    const wrongId = [
      user,
      { role: "assistant", content: null, tool_calls: [call("call_1")] },
      { role: "tool", tool_call_id: "call_2", content: "r" },
    ];
    expect(refusal({ model: "m", messages: wrongId }).param).toBe("messages.[2].role");
    const unanswered = [
      user,
      { role: "assistant", content: null, tool_calls: [call("call_1"), call("call_2")] },
      { role: "tool", tool_call_id: "call_1", content: "r" },
      user,
    ];
    expect(refusal({ model: "m", messages: unanswered })).toMatchObject({
      param: "messages.[1].role",
      message: expect.stringContaining("did not have response messages: call_2"),
    });
  });

  it("accepts a full tool round trip and reads content parts as text", () => {
    const request = validateChatRequest({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are Ada." },
        {
          role: "user",
          content: [
            { type: "text", text: "where my " },
            { type: "text", text: "order?" },
          ],
        },
        { role: "assistant", content: null, tool_calls: [call("call_1")] },
        { role: "tool", tool_call_id: "call_1", content: '{"status":"shipped"}' },
      ],
      tools,
      tool_choice: "auto",
      temperature: 0.2,
      max_tokens: 300,
    });
    expect(request.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(request.messages[1]?.text).toBe("where my order?");
    expect(request.messages[2]?.toolCalls).toEqual([
      { id: "call_1", name: "get_order_status", arguments: '{"orderId":"A1"}' },
    ]);
    expect(request.toolChoice).toBe("auto");
    expect(request.maxTokens).toBe(300);
    expect(request.toolsJson).toBe(JSON.stringify(tools));
  });
});
