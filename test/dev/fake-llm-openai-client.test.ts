import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { LLM_KEY, trackFakeLlms } from "../support/fake-llm.js";

const fake = trackFakeLlms(afterEach);

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "get_order_status",
      description: "Status of the customer's most recent orders.",
      parameters: { type: "object", properties: { orderId: { type: "string" } } },
    },
  },
];

describe("fake LLM with the official openai client (openai@6)", () => {
  it("gets a tool call, sends the result back, and gets the final answer", async () => {
    const f = await fake({
      apiKey: LLM_KEY,
      rules: [
        {
          when: { lastUser: "order", toolOffered: "get_order_status" },
          reply: { toolCalls: [{ name: "get_order_status", arguments: { orderId: "A1" } }] },
        },
      ],
    });
    const client = new OpenAI({ baseURL: `${f.url}/v1`, apiKey: LLM_KEY, maxRetries: 0 });
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: "system", content: "You are Ada." },
      { role: "user", content: "Abeg where my order?" },
    ];
    const first = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages,
      tools,
      tool_choice: "auto",
      max_completion_tokens: 300,
    });
    const choice = first.choices[0];
    if (choice === undefined) throw new Error("expected one choice");
    expect(choice.finish_reason).toBe("tool_calls");
    const call = choice.message.tool_calls?.[0];
    expect(call?.type).toBe("function");
    if (call?.type !== "function") throw new Error("expected a function tool call");
    expect(call.function.name).toBe("get_order_status");
    expect(JSON.parse(call.function.arguments)).toEqual({ orderId: "A1" });
    expect(first.usage?.total_tokens).toBe(
      (first.usage?.prompt_tokens ?? 0) + (first.usage?.completion_tokens ?? 0),
    );

    messages.push(choice.message, { role: "tool", tool_call_id: call.id, content: '{"status":"shipped"}' });
    const second = await client.chat.completions.create({ model: "gpt-4o-mini", messages, tools });
    expect(second.choices[0]?.message.content).toBe('Here is what I found: {"status":"shipped"}');
    // The client's own headers reach the record; its key does not.
    expect(f.fake.requests()[0]?.headers["user-agent"]).toMatch(/OpenAI\/JS/);
  });

  it("surfaces the fake's errors as the client's typed errors", async () => {
    const f = await fake({ apiKey: LLM_KEY });
    const wrongKey = new OpenAI({ baseURL: `${f.url}/v1`, apiKey: "sk-wrong", maxRetries: 0 });
    await expect(
      wrongKey.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);

    f.fake.setFaults({ failNext: { count: 1, status: 429 } });
    const client = new OpenAI({ baseURL: `${f.url}/v1`, apiKey: LLM_KEY, maxRetries: 0 });
    const limited = await client.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "hi" }] })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers.get("retry-after")).toBe("1");

    // With its default retries, the client rides out one 500 (it waits ~0.5 s, then tries again).
    f.fake.setFaults({ failNext: { count: 1, status: 500 } });
    const retrying = new OpenAI({ baseURL: `${f.url}/v1`, apiKey: LLM_KEY });
    const answer = await retrying.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(answer.choices[0]?.message.content).toBe("(fake LLM) You said: hi");
    expect(
      f.fake
        .requests()
        .slice(-2)
        .map((r) => r.status),
    ).toEqual([500, 200]);
  });
});
