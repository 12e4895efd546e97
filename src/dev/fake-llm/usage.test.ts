import { describe, expect, it } from "vitest";
import type { ComposedReply } from "./compose-reply.js";
import { countUsage } from "./usage.js";
import { validateChatRequest } from "./validate-chat-request.js";

const stop = (content: string): ComposedReply => ({
  content,
  toolCalls: [],
  finishReason: "stop",
  rule: "default",
});

describe("countUsage", () => {
  it("counts ⌈characters / 4⌉ plus 3 per message for the prompt, ⌈output / 4⌉ for the completion", () => {
    const request = validateChatRequest({
      model: "m",
      messages: [
        { role: "system", content: "12345678" }, // 8
        { role: "user", content: "1234567" }, // 7
      ],
    });
    expect(countUsage(request, stop("123456789"))).toEqual({
      prompt_tokens: Math.ceil(15 / 4) + 6,
      completion_tokens: 3,
      total_tokens: 4 + 6 + 3,
    });
  });

  it("counts tool-call arguments and the tools JSON in the prompt, tool names and arguments in the output", () => {
    const tools = [{ type: "function", function: { name: "t", parameters: { type: "object" } } }];
    const request = validateChatRequest({
      model: "m",
      tools,
      messages: [
        { role: "user", content: "abcd" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "t", arguments: '{"a":1}' } }],
        },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ],
    });
    const promptChars = 4 + 7 + 2 + JSON.stringify(tools).length;
    const reply: ComposedReply = {
      content: null,
      toolCalls: [{ name: "lookup", arguments: '{"q":"hi"}' }],
      finishReason: "tool_calls",
      rule: 0,
    };
    expect(countUsage(request, reply)).toMatchObject({
      prompt_tokens: Math.ceil(promptChars / 4) + 9,
      completion_tokens: Math.ceil((6 + 10) / 4),
    });
  });

  it("counts an emoji as one character and never reports 0 completion tokens", () => {
    const request = validateChatRequest({ model: "m", messages: [{ role: "user", content: "🙏🙏🙏🙏" }] });
    expect(countUsage(request, stop(""))).toMatchObject({ prompt_tokens: 1 + 3, completion_tokens: 1 });
  });

  it("grows with the prompt", () => {
    const sizes = [10, 100, 1000, 10_000].map(
      (n) =>
        countUsage(
          validateChatRequest({ model: "m", messages: [{ role: "user", content: "x".repeat(n) }] }),
          stop("ok"),
        ).prompt_tokens,
    );
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(sizes[3]).toBe(2500 + 3);
  });
});
