import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../config/index.js";
import { resolveAgentSettings } from "./agent-settings.js";
import { buildSystemPrompt } from "./system-prompt.js";

describe("the system prompt", () => {
  it("gives the agent the FAQ tier's entries as hints", () => {
    const settings = resolveAgentSettings({ id: "t", settings: {} } as unknown as TenantConfig);
    const prompt = buildSystemPrompt(settings, undefined, [
      { id: "delivery-fee", q: "How much is delivery?", a: "₦1,000 within Yaba.", score: 4.2 },
    ]);
    expect(prompt).toContain("FAQ entries that may answer this");
    expect(prompt).toContain("[delivery-fee] Q: How much is delivery?\n  A: ₦1,000 within Yaba.");
    expect(buildSystemPrompt(settings, undefined)).not.toContain("FAQ entries");
  });
});
