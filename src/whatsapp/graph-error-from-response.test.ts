import { describe, expect, it } from "vitest";
import { graphErrorFromResponse, retryAfterMs } from "./graph-error-from-response.js";

const token = "EAAG-secret-token-123";
const now = () => Date.parse("2026-11-20T09:00:00Z");
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers,
  body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
});

describe("graphErrorFromResponse", () => {
  it("keeps Meta's code, subcode, details, trace id and transient flag", () => {
    const error = graphErrorFromResponse(
      "send message",
      answer(503, {
        error: {
          message: "(#131016) Service unavailable",
          type: "OAuthException",
          code: 131016,
          error_subcode: 2494010,
          error_data: { messaging_product: "whatsapp", details: "A service is temporarily unavailable." },
          is_transient: true,
          fbtrace_id: "AbC",
        },
      }),
      { token, now },
    );
    expect(error).toMatchObject({
      code: "SS_WHATSAPP_GRAPH_ERROR",
      status: 503,
      graphCode: 131016,
      graphSubcode: 2494010,
      type: "OAuthException",
      details: "A service is temporarily unavailable.",
      fbtraceId: "AbC",
      isTransient: true,
      retryAfterMs: undefined,
    });
    expect(error.message).toContain("131016");
    expect(error.message).toContain("AbC");
  });

  it("redacts the token wherever Meta quotes it", () => {
    const error = graphErrorFromResponse(
      "send message",
      answer(400, { error: { message: `bad token ${token}`, code: 190, error_data: { details: token } } }),
      { token, now },
    );
    expect(error.message).not.toContain(token);
    expect(error.details).toBe("[redacted]");
    expect(JSON.stringify(error)).not.toContain(token);
  });

  it("survives a body that is not a Graph error, and fields of the wrong type", () => {
    const html = graphErrorFromResponse("send message", answer(502, "<html>Bad gateway</html>"), {
      token,
      now,
    });
    expect(html).toMatchObject({ status: 502, graphCode: undefined, details: undefined });
    const odd = graphErrorFromResponse(
      "send message",
      answer(400, { error: { code: "131047", fbtrace_id: "T" } }),
      {
        token,
        now,
      },
    );
    expect(odd).toMatchObject({ graphCode: undefined, fbtraceId: "T" });
  });
});

describe("retryAfterMs", () => {
  it("reads Retry-After seconds or date, and the longest regain-access time of X-Business-Use-Case-Usage", () => {
    expect(retryAfterMs({ "retry-after": "30" }, now)).toBe(30_000);
    expect(retryAfterMs({ "retry-after": "Fri, 20 Nov 2026 09:02:00 GMT" }, now)).toBe(120_000);
    const usage = JSON.stringify({
      "114098765432109": [
        { type: "whatsapp", call_count: 100, estimated_time_to_regain_access: 7 },
        { type: "whatsapp", estimated_time_to_regain_access: 0 },
      ],
    });
    expect(retryAfterMs({ "x-business-use-case-usage": usage }, now)).toBe(420_000);
    expect(retryAfterMs({ "x-business-use-case-usage": usage, "retry-after": "600" }, now)).toBe(600_000);
    expect(retryAfterMs({}, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "soon", "x-business-use-case-usage": "{" }, now)).toBeUndefined();
  });
});
