import { describe, expect, it } from "vitest";
import { campaignSettingsOf } from "./campaign-settings.js";

const tenant = (campaigns: unknown) => ({
  id: "shop",
  settings: campaigns === undefined ? {} : { campaigns },
});

describe("campaignSettingsOf", () => {
  it("defaults: no limit, 20% kept for replies, West Africa Time, no quiet hours", () => {
    expect(campaignSettingsOf(tenant(undefined))).toEqual({
      replyReservePercent: 20,
      timezone: "Africa/Lagos",
    });
  });

  it("reads a tier name or a number as the messaging limit", () => {
    expect(campaignSettingsOf(tenant({ messagingLimit: "TIER_2K" })).messagingLimit).toBe(2000);
    expect(campaignSettingsOf(tenant({ messagingLimit: 1500 })).messagingLimit).toBe(1500);
    expect(campaignSettingsOf(tenant({ messagingLimit: "TIER_UNLIMITED" })).messagingLimit).toBeUndefined();
  });

  it("names the tenant and every problem", () => {
    expect(() =>
      campaignSettingsOf(
        tenant({
          messagingLimit: "TIER_3K",
          replyReservePercent: 95,
          timezone: "Lagos",
          quietHours: { start: "9pm" },
        }),
      ),
    ).toThrow(
      /tenant shop: campaigns\.messagingLimit.*campaigns\.replyReservePercent.*campaigns\.timezone must be an IANA.*campaigns\.quietHours\.start must be a 24-hour/,
    );
  });
});
