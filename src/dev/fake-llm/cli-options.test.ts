import { describe, expect, it } from "vitest";
import { parseFakeLlmArgs } from "./cli-options.js";

const files: Record<string, string> = {
  "rules.json": JSON.stringify({ rules: [{ when: { lastUser: "hi" }, reply: { content: "hello" } }] }),
  "bad-rules.json": JSON.stringify([{ when: { lastUser: "(" }, reply: { content: "x" } }]),
  "not-json.json": "{",
};
const readText = (path: string) => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error("no such file"), { code: "ENOENT" });
  return text;
};

describe("parseFakeLlmArgs", () => {
  it("defaults to 127.0.0.1:4100, no latency, no faults, any key", () => {
    expect(parseFakeLlmArgs([], { readText })).toEqual({
      ok: true,
      value: { host: "127.0.0.1", port: 4100, llm: { faults: {} } },
    });
  });

  it("reads every flag", () => {
    const parsed = parseFakeLlmArgs(
      [
        "--host=0.0.0.0",
        "--port=0",
        "--latency=1000-3000",
        "--error-rate=0.1",
        "--error-status=429",
        "--rules=rules.json",
        "--api-key=k",
        "--seed=9",
      ],
      { readText },
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        host: "0.0.0.0",
        port: 0,
        llm: {
          apiKey: "k",
          rules: [{ when: { lastUser: "hi" }, reply: { content: "hello" } }],
          latencyMs: [1000, 3000],
          seed: 9,
          faults: { errorRate: 0.1, errorStatus: 429 },
        },
      },
    });
    expect(parseFakeLlmArgs(["--latency", "50"], { readText })).toMatchObject({
      value: { llm: { latencyMs: 50 } },
    });
  });

  it("takes the key from $LLM_API_KEY unless --api-key is given", () => {
    expect(parseFakeLlmArgs([], { readText, llmApiKey: "env" })).toMatchObject({
      value: { llm: { apiKey: "env" } },
    });
    expect(parseFakeLlmArgs(["--api-key", "flag"], { readText, llmApiKey: "env" })).toMatchObject({
      value: { llm: { apiKey: "flag" } },
    });
  });

  it("reports every bad flag at once", () => {
    const parsed = parseFakeLlmArgs(
      [
        "--port",
        "x",
        "--latency",
        "3000-1000",
        "--error-rate",
        "2",
        "--error-status",
        "404",
        "--rules",
        "bad-rules.json",
      ],
      { readText },
    );
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? "" : parsed.problems.join("\n");
    expect(problems).toMatch(/--port: "x"/);
    expect(problems).toMatch(/--latency: "3000-1000"/);
    expect(problems).toMatch(/--error-rate: "2"/);
    expect(problems).toMatch(/--error-status: "404"/);
    expect(problems).toMatch(
      /--rules bad-rules\.json: rules\[0\]\.when\.lastUser is not a valid regular expression/,
    );
    expect(parseFakeLlmArgs(["--rules", "missing.json"], { readText })).toMatchObject({
      problems: [expect.stringMatching(/cannot read "missing.json" \(ENOENT\)/)],
    });
    expect(parseFakeLlmArgs(["--rules", "not-json.json"], { readText })).toMatchObject({
      problems: [expect.stringMatching(/is not JSON/)],
    });
    expect(parseFakeLlmArgs(["--latency-ms", "5"], { readText })).toMatchObject({ ok: false });
  });
});
