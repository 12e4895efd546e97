import { describe, expect, it } from "vitest";
import { createKnowledgeBase } from "../../src/agent/index.js";

// Pending actions, tenant slots and the token budget: see their contract suites in test/contracts/.
describe("knowledge base", () => {
  const base = createKnowledgeBase([
    { id: "delivery-fee", q: "How much is delivery?", a: "₦1,500 within Lekki, ₦2,500 elsewhere in Lagos." },
    { id: "hours", q: "When are you open?", a: "8am to 9pm every day." },
    { id: "refunds", q: "How do refunds work?", a: "Refunds go back to your card within 5 working days." },
  ]);

  it("finds entries by question words, despite typos, best first, with ids", () => {
    expect(base.search("delivry fee")[0]?.id).toBe("delivery-fee");
    expect(base.search("what time una open")[0]?.id).toBe("hours");
    expect(base.search("refund my card")[0]?.id).toBe("refunds");
    expect(base.search("football")).toEqual([]);
  });
});
