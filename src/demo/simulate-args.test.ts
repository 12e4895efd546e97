import { describe, expect, it } from "vitest";
import { DEFAULT_SIMULATE_FROM, DEFAULT_SIMULATE_TIMEOUT_MS, parseSimulateArgs } from "./simulate-args.js";

describe("parseSimulateArgs", () => {
  it("takes the text with defaults, joining unquoted words", () => {
    expect(parseSimulateArgs(["abeg", "my", "transfer", "never", "enter"])).toEqual({
      ok: true,
      value: {
        text: "abeg my transfer never enter",
        from: DEFAULT_SIMULATE_FROM,
        timeoutMs: DEFAULT_SIMULATE_TIMEOUT_MS,
        url: undefined,
      },
    });
  });

  it("takes --from, --timeout-ms and --url", () => {
    const parsed = parseSimulateArgs([
      "hi",
      "--from",
      "2348090000001",
      "--timeout-ms",
      "500",
      "--url",
      "http://h:1/webhook",
    ]);
    expect(parsed).toEqual({
      ok: true,
      value: { text: "hi", from: "2348090000001", timeoutMs: 500, url: "http://h:1/webhook" },
    });
  });

  it("reports every problem at once", () => {
    const parsed = parseSimulateArgs(["--from", "+234", "--timeout-ms", "soon", "--url", "ftp://x"]);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems).toHaveLength(4);
  });

  it("refuses unknown flags", () => {
    expect(parseSimulateArgs(["hi", "--form", "1"]).ok).toBe(false);
  });
});
