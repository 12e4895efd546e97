import { describe, expect, it } from "vitest";
import { chooseStartMode } from "./start-mode.js";

const none = { defaultTenantsFile: false };

describe("chooseStartMode (demo or gateway)", () => {
  it("starts the demo when nothing WhatsApp is configured, keeping only the passthrough variables", () => {
    const choice = chooseStartMode(
      { PATH: "/bin", HOST: " 127.0.0.1 ", PORT: "3001", REDIS_PREFIX: "prod", LLM_BASE_URL: "x" },
      none,
    );
    expect(choice).toEqual({ mode: "demo", env: { HOST: "127.0.0.1", PORT: "3001" } });
  });

  it("starts the demo on an empty environment, and treats blank values as unset", () => {
    expect(chooseStartMode({}, none)).toEqual({ mode: "demo", env: {} });
    expect(chooseStartMode({ WHATSAPP_APP_SECRET: "  ", SHARPSHARP_CONFIG: "" }, none).mode).toBe("demo");
  });

  it.each([
    "WHATSAPP_APP_SECRET",
    "WHATSAPP_VERIFY_TOKEN",
    "WHATSAPP_TOKEN",
    "WHATSAPP_PHONE_NUMBER_ID",
    "SHARPSHARP_CONFIG",
    "REDIS_URL",
    "DATABASE_URL",
  ])("runs the gateway when %s is set (even alone, so a half setup gets its config errors)", (name) => {
    expect(chooseStartMode({ [name]: "x" }, none)).toEqual({ mode: "gateway" });
  });

  it("runs the gateway when a default tenants file sits in the working directory", () => {
    expect(chooseStartMode({}, { defaultTenantsFile: true })).toEqual({ mode: "gateway" });
  });
});
