import { describe, expect, it } from "vitest";
import { newCampaignId } from "./campaign-id.js";

describe("newCampaignId", () => {
  it("gives 16 base64url characters that never start with - or _ (a CLI would read -… as an option)", () => {
    // Without the check about 60 of 2,000 ids would start with one of them.
    const ids = Array.from({ length: 2_000 }, newCampaignId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{15}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
