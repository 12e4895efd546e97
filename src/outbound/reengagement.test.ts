import { describe, expect, it } from "vitest";
import { reengagementTemplates } from "./reengagement.js";

describe("reengagementTemplates", () => {
  it("reads { name, language } per tenant; a tenant without one has none", () => {
    const templates = reengagementTemplates([
      { id: "a", settings: { reengagementTemplate: { name: "hello_again", language: "en" } } },
      { id: "b", settings: {} },
    ]);
    expect(templates.get("a")).toEqual({ name: "hello_again", language: "en" });
    expect(templates.has("b")).toBe(false);
  });

  it("refuses a malformed setting, naming the tenant", () => {
    expect(() =>
      reengagementTemplates([{ id: "a", settings: { reengagementTemplate: { name: "" } } }]),
    ).toThrow(
      expect.objectContaining({
        code: "SS_OUTBOUND_INVALID_REENGAGEMENT_TEMPLATE",
        message: expect.stringContaining('"a"'),
      }),
    );
  });
});
