import { describe, expect, it } from "vitest";
import { detectBank } from "./bank-slot.js";
import { loadLexicon } from "./lexicon.js";
import { normalizeMessage } from "./normalize.js";
import { extractSlots } from "./slots.js";
import { extractWordAmounts } from "./word-amounts.js";

const lexicon = loadLexicon();
const slotsOf = (text: string) => normalizeMessage(text, lexicon).slots;

describe("amounts written the Hausa, Yoruba and Igbo ways", () => {
  it("reads digits with a naira sign, the word naira before them, and dotted thousands", () => {
    expect(extractSlots("tura ₦45000 asusun ajiyar lami").slots.amount).toBe(45000);
    expect(extractSlots("ṣé mo ní tó ₦1,000,000 nínú àpò").slots.amount).toBe(1_000_000);
    expect(extractSlots("mú ₦15.000 láti àpamọ́ savings mi").slots.amount).toBe(15000);
    expect(extractSlots("send ₦1.000.000 now").slots.amount).toBe(1_000_000);
    expect(extractSlots("aika naira 5000 yanzu").slots.amount).toBe(5000);
    expect(extractSlots("n5000 don allah").slots.amount).toBe(5000);
    expect(extractSlots("ǹjẹ́ #2000 lọ kéré jù").slots.amount).toBe(2000);
    expect(extractSlots("2.5m for the car").slots.amount).toBe(2_500_000);
  });

  it("leaves numbers that are not money alone", () => {
    expect(extractSlots("version 2.500 of the app").slots.amount).toBeUndefined();
    expect(extractSlots("gbanwe akara nzuzo m ka ọ bụrụ 2030").slots.amount).toBeUndefined();
  });

  it("reads thousand and million words with the count they govern", () => {
    expect(slotsOf("Aika naira dubu goma zuwa bankin Access ɗi na").amount).toBe(10_000);
    expect(slotsOf("turomin dubu goma cikin asusun ajiya ta na GT").amount).toBe(10_000);
    expect(slotsOf("Jọ̀wọ́ mú ẹgbẹ̀rún mẹ́ta Náírà láti àpamọ́ savings mi").amount).toBe(3000);
    expect(slotsOf("bá mi ko ẹgbẹ̀rún márùn-ún Naira lati apamọ current mi").amount).toBe(5000);
    expect(slotsOf("Jọ̀wọ́ san ẹgbẹ̀rún Náírà si banki oníbàárà mi.").amount).toBe(1000);
    expect(slotsOf("nyefe chierika puku naira ise site na current akaụntụ m").amount).toBe(5000);
    expect(slotsOf("Nyefe otu puku naira site n'akaụntụ savings m").amount).toBe(1000);
    expect(slotsOf("Wepụ puku iri na Ecobank akaụntụ m").amount).toBe(10_000);
    expect(slotsOf("Zigara m Kenechukwu nde naira abụọ").amount).toBe(2_000_000);
    expect(slotsOf("Nyefee Amadi puku naira iri ise ugbu a").amount).toBe(50_000);
  });

  it("replaces a worded amount by the amount token, and guesses nothing it cannot read exactly", () => {
    expect(extractWordAmounts("tura naira dubu shida daga zenith", "_amount_").text).toBe(
      "tura _amount_ daga zenith",
    );
    expect(slotsOf("Nyere m aka ziga puku narị ise gaa na akaụntụ nwa m").amount).toBeUndefined();
    expect(slotsOf("dubu na gode").amount).toBeUndefined();
    expect(extractWordAmounts("ina son ganin ciniki na", "_amount_")).toEqual({
      text: "ina son ganin ciniki na",
    });
  });
});

describe("dates in Hausa, Yoruba and Igbo", () => {
  it.each([
    ["kudina bai shigo ba tun jiya", "yesterday"],
    ["na tura shekaranjiya", "days_ago"],
    ["Lórí MaestroCard mi, sọ iye tí mo ná ní àná", "yesterday"],
    ["tí mo rà ní Shoprite lánàá", "yesterday"],
    ["azụmahịa niile emere na akaụntụ m nwanne ụnyaahụ", "days_ago"],
    ["kwụọ Mazi Peter ego o nyefere m na mgbede ụnyaahụ", "yesterday"],
    ["iye tí mo ná lọ̀sẹ̀ tó kọjá", "last_week"],
    ["Fi àpapọ̀ iye tí mo ná lórí èso ní oṣù tí ó kọjá hàn mí", "last_month"],
    ["Ta yaya zan ga jerin cinikayyata na watan daya wuce?", "last_month"],
    ["Nawa ne ciniki na watan da ya wuce", "last_month"],
    ["Achọrọ m ịhụ azụmahịa niile m mere n'ime ọnwa gara aga", "last_month"],
    ["Ina son sanin kuɗin ruwa na shekarar da ta wuce?", "last_year"],
    ["Sọ iye tí mo ná láti ọjọ́ márùn-ún sẹ́yìn fún mi.", "days_ago"],
    ["bá mi wò iye tí mo ná lóṣù mẹ́ta sẹ́yìn", "months_ago"],
    ["Nuna min ciniki na na tufafi a wannan watan", "this_month"],
    ["Ụma ego ole ka m ga-enweta na FCMB n'ọnwa a?", "this_month"],
    ["Ndị Polaris e nyere m Ụma n'ọnwa Juun?", "month_june"],
    ["ka ndị Fidelity bank zitere m nkwupụta akaụntụ m nke ọnwa May", "month_may"],
    ["you may send it", undefined],
  ])("%s → %s", (text, date) => {
    expect(slotsOf(text).date).toBe(date);
  });

  it("does not read Hausa 'ana' (one is …) as Yoruba 'àná' (yesterday)", () => {
    expect(slotsOf("nawa ake biya a matsayin mafi ƙarancin kuɗin wuta? ana biya kowane wata").date).toBe(
      undefined,
    );
  });
});

describe("the bank slot", () => {
  it.each([
    ["Gaya min jimlar kuɗi a asusun banki na na GT da union?", "GTBank"],
    ["Ṣé iye tí ó kù nínú àpamọ́ ìfowópamọ́ GTB mi tó ₦200,000?", "GTBank"],
    ["Enwetala ụgwọ ego ahụ mgbazitere ndị Guarantee Trust Bank", "GTBank"],
    ["Tura ₦20000 daga asusun ajiyar kuɗi na GT zuwa UBA", "GTBank"],
    ["Za ka iya tura ₦8450 daga asusun ajiyar kuɗi na Jaiz zuwa UBA", "Jaiz Bank"],
    ["gosi m azụmahịa ọ bụla na akaụntụ UBA m", "UBA"],
    ["Aika naira dubu goma zuwa bankin Access ɗi na", "Access Bank"],
    ["my first bank app no dey open", "First Bank"],
    ["abeg my opay transfer never land", "OPay"],
    ["send am to my palm pay", "PalmPay"],
    ["Moniepoint POS debit me twice", "Moniepoint"],
    ["Láti ìsinyìí lọ, mo fẹ́ ti àpò ìfowópamọ́ mi ní ilé ìfowópamọ́ Zenith pa.", "Zenith Bank"],
    ["Bí mo bá ń kówó pamọ́ sí ilé-ìfowópamọ́ Sterling, ìwọ̀n owó èlé wo", "Sterling Bank"],
    ["kedu ụma m ga-enweta na Palmpay m taa?", "PalmPay"],
    ["Na Union bank, kedụ usoro ha ji a kpọchi akaụntụ", "Union Bank"],
    ["Ụma ego ole ka m nwetere na akaụntụ Kuda m?", "Kuda"],
    ["fcmb don block my card", "FCMB"],
    ["Stanbic IBTC app is down", "Stanbic IBTC"],
  ])("%s → %s", (text, bank) => {
    expect(detectBank(text)).toBe(bank);
    expect(slotsOf(text).bank).toBe(bank);
  });

  it.each([
    "I can't access my account since morning",
    "Access denied when I log in",
    "union of the workers",
    "mahaifina uba ne na kwarai",
    "na ga kuda a cikin abinci",
    "my diamond ring",
    "the first time I tried",
    "my balance abeg",
  ])("names no bank in %s", (text) => {
    expect(detectBank(text)).toBeUndefined();
  });
});
