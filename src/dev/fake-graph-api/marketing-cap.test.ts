import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../observability/index.js";
import { createSeededRandom } from "../fake-server/index.js";
import { createFakeGraphApi, type FakeGraphApi } from "./create-fake-graph-api.js";

const TOKEN = "t";
const fakes: FakeGraphApi[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

function start(seed: number, marketingCapShare: number, templateCategories = {}, seedAsOption = false) {
  const fake = createFakeGraphApi(
    {
      logger: createLogger({ level: "silent" }),
      ...(seedAsOption ? {} : { random: createSeededRandom(seed) }),
    },
    { tokens: [TOKEN], marketingCapShare, templateCategories, ...(seedAsOption ? { seed } : {}) },
  );
  fakes.push(fake);
  const template = async (name: string, i: number) => {
    const response = await fake.app.inject({
      method: "POST",
      url: "/v25.0/pn1/messages",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      payload: JSON.stringify({
        messaging_product: "whatsapp",
        to: `+234800${String(i).padStart(7, "0")}`,
        type: "template",
        template: { name, language: { code: "en" } },
      }),
    });
    return { status: response.statusCode, code: response.json().error?.code as number | undefined };
  };
  return { fake, template };
}

async function outcomes(seed: number, share: number, seedAsOption = false): Promise<(number | undefined)[]> {
  const { template } = start(seed, share, { spring_sale: "marketing" }, seedAsOption);
  const codes: (number | undefined)[] = [];
  for (let i = 0; i < 1000; i++) codes.push((await template("spring_sale", i)).code);
  return codes;
}

describe("marketing cap (131049)", () => {
  it("refuses about the configured share of 1,000 marketing sends, the same ones for the same seed", async () => {
    const first = await outcomes(42, 0.2);
    const refused = first.filter((code) => code === 131049).length;
    expect(refused).toBeGreaterThan(160);
    expect(refused).toBeLessThan(240);
    expect(first.every((code) => code === undefined || code === 131049)).toBe(true);
    expect(await outcomes(42, 0.2)).toEqual(first);
    expect(await outcomes(7, 0.2)).not.toEqual(first);
    // The `seed` option (what `--seed` sets) seeds the same source.
    expect(await outcomes(42, 0.2, true)).toEqual(first);
  });

  it("answers Meta's 131049 body and counts what it refused", async () => {
    const { fake, template } = start(1, 1);
    const response = await fake.app.inject({
      method: "POST",
      url: "/v25.0/pn1/messages",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      payload: JSON.stringify({
        messaging_product: "whatsapp",
        to: "+2348000000001",
        type: "template",
        template: { name: "unknown_promo", language: { code: "en" } },
      }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 131049,
      message: "(#131049) This message was not delivered to maintain healthy ecosystem engagement.",
      error_data: { messaging_product: "whatsapp" },
    });
    await template("another_promo", 2);
    expect(fake.marketingCap()).toEqual({ share: 1, rolled: 2, refused: 2 });
    expect(fake.messages()).toHaveLength(0);
  });

  it("spares utility and authentication templates (by the catalog or the category map) and service sends", async () => {
    const { fake, template } = start(1, 1, {
      login_code: "authentication",
      conversation_followup: "utility",
    });
    expect((await template("order_update", 1)).status).toBe(200); // UTILITY in the fake's catalog
    expect((await template("login_code", 2)).status).toBe(200);
    expect((await template("flash_sale", 3)).code).toBe(131049); // MARKETING in the catalog
    expect(fake.messages().map((m) => m.templateCategory)).toEqual(["utility", "authentication"]);

    const off = await fake.app.inject({ method: "POST", url: "/_fake/marketing-cap", payload: { share: 0 } });
    expect(off.json()).toMatchObject({ share: 0 });
    expect((await template("flash_sale", 4)).status).toBe(200);
    const invalid = await fake.app.inject({
      method: "POST",
      url: "/_fake/marketing-cap",
      payload: { share: 1.5 },
    });
    expect(invalid.statusCode).toBe(400);
  });
});
