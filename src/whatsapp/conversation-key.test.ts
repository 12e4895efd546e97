import { describe, expect, it } from "vitest";
import {
  conversationKeyOf,
  phoneNumberIdOfConversation,
  splitCustomerOfConversation,
  tenantOfConversation,
} from "./conversation-key.js";

describe("the conversation key", () => {
  it("is built from tenant, business number and customer, and read back the same way", () => {
    const key = conversationKeyOf("acme", "1098765432", "2348012345678");
    expect(key).toBe("acme:1098765432:2348012345678");
    expect(tenantOfConversation(key)).toBe("acme");
    expect(phoneNumberIdOfConversation(key)).toBe("1098765432");
    expect(splitCustomerOfConversation(key)).toEqual({
      scope: "acme:1098765432:",
      customerId: "2348012345678",
    });
  });

  it("treats a key without separators as all tenant and all customer", () => {
    expect(tenantOfConversation("solo")).toBe("solo");
    expect(splitCustomerOfConversation("solo")).toEqual({ scope: "", customerId: "solo" });
    expect(phoneNumberIdOfConversation("solo")).toBe("");
    expect(phoneNumberIdOfConversation("acme:solo")).toBe("");
  });
});
