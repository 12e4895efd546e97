import { describe, expect, it } from "vitest";
import { parseFakeGraphArgs } from "./cli-options.js";

describe("parseFakeGraphArgs", () => {
  it("reads the messaging limit, the marketing cap share and the seed into the fake's options", () => {
    const parsed = parseFakeGraphArgs(
      ["--messaging-limit", "250", "--marketing-cap-share", "0.1", "--seed", "42"],
      {},
    );
    expect(parsed).toMatchObject({
      ok: true,
      value: { api: { messagingLimit: { uniqueRecipients: 250 }, marketingCapShare: 0.1, seed: 42 } },
    });
    const none = parseFakeGraphArgs([], {});
    expect(none.ok && "messagingLimit" in none.value.api).toBe(false);
  });

  it("reports every invalid value at once", () => {
    const parsed = parseFakeGraphArgs(
      ["--messaging-limit", "1.5", "--marketing-cap-share", "2", "--seed", "x"],
      {},
    );
    expect(parsed).toEqual({
      ok: false,
      problems: [
        '--messaging-limit: "1.5" is not valid',
        '--marketing-cap-share: "2" is not valid',
        '--seed: "x" is not valid',
      ],
    });
  });
});
