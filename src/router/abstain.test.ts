import { describe, expect, it } from "vitest";
import { abstainReason, foldForRules } from "./abstain.js";

const cases = (reason: string, messages: readonly string[]) =>
  it.each(messages)(`flags "%s" as ${reason}`, (message) => {
    expect(abstainReason(message)).toBe(reason);
  });

describe("abstainReason: several requests in one message", () => {
  cases("several_requests", [
    "abeg check my balance and also buy 1k airtime for me", // pcm
    "Please send my statement. Another thing, how do I get a loan?", // en
    "Ẹ jọ̀wọ́ ẹ sọ balance mi fún mi, àti pé mo fẹ́ ra data", // yo, tone marks
    "e jowo e so balance mi fun mi, ati pe mo fe ra data", // yo, without
    "Don Allah ina son sanin balance dina, sannan ina son loan", // ha
    "Biko gwa m balance m, ọzọkwa achọrọ m ịzụ data", // ig
    "how much is my balance? can I get a loan?", // two questions, two topics
    "Achọrọ m ịlele balance m, zụtakwa m data 2GB", // ig: "-kwa" on the verb is "also"
    "ina son in tura kudi ga kanwata, kuma a sayi min airtime", // ha: native transfer verb
  ]);
});

describe("abstainReason: negation of the intent", () => {
  cases("negated_intent", [
    "I no want check balance, my money cut", // pcm
    "I don't want to check my balance, I want to know where my money went", // en
    "It's not about my balance, something else happened", // en
    "no be balance i dey ask, my account don block", // pcm
    "Mi ò fẹ́ wo balance, owó mi ti sọnù", // yo, tone marks
    "mi o fe wo balance sugbon owo mi ti lo", // yo, without
    "Ba na so in duba balance, kudina ne ya bace", // ha
    "Achọghị m ịlele balance, ego m furu efu", // ig, tone marks
    "achoghi m ilele balance, ego m furu efu", // ig, without
  ]);
});

describe("abstainReason: a complaint about a previous answer", () => {
  cases("complaint_about_reply", [
    "that no answer my question", // pcm
    "you no dey hear", // pcm
    "una bot useless", // pcm
    "That did not answer my question at all", // en
    "stop sending me the same reply", // en
    "This is my third time messaging and nobody has responded", // en
    "Ẹ ò gbọ́ ohun tí mo ń sọ", // yo, tone marks
    "ki i se ohun ti mo beere", // yo, without
    "Ba ku fahimta ba, na riga na faɗa muku", // ha, hooked letter
    "ba abin da na tambaya ba kenan", // ha
    "Unu aghọtaghị ihe m na-ekwu", // ig, tone marks
    "obughi ihe m juru", // ig, without
    "Ok but my data still never reach", // pcm: the last answer did not settle it
    "Thank you, but I still haven't received the refund", // en
    "E se, sugbon owo mi ko tii wole", // yo
    "Daalu, mana ego ahụ abatabeghị", // ig
  ]);
});

describe("abstainReason: a request for an investigation", () => {
  cases("asks_investigation", [
    "why una debit me 2k yesterday?", // pcm
    "Why was I debited twice for one transfer?", // en
    "I bought N1000 airtime but was debited N10,000", // en: another amount than paid
    "please trace my transfer of 20k", // en
    "I want to dispute this charge", // en
    "abeg find out wetin happen to my money", // pcm
    "check what happened to my transfer", // en
    "Kí ló dé tí wọ́n yọ owó lórí àkáǹtì mi?", // yo, tone marks
    "kilode ti won yo owo mi", // yo, without
    "Me yasa aka cire min kuɗi jiya?", // ha
    "Don Allah ku bincika min wannan transfer", // ha
    "N'ihi gịnị ka unu wepụrụ ego m?", // ig, tone marks
    "biko nyochaa transfer m", // ig, without
  ]);
});

describe("abstainReason: plain routine requests are not flagged", () => {
  it.each([
    "abeg check my balance",
    "how I go buy data",
    "how much is in my account?",
    "I want to transfer 5k to my brother",
    "my transfer never enter since morning",
    "abeg reverse my money, transfer fail", // a reversal of a failed debit is failed_transaction (TAXONOMY.md)
    "I don't want the order again, refund me", // refund_request
    "where is my order? I paid since Monday",
    "can you block my card? i'm in the hospital",
    "send my statement for last month",
    "Ẹ jọ̀wọ́, èló ni balance mi?",
    "e jowo mo fe ra data 1GB",
    "Don Allah ina son sanin kuɗin da ke account dina",
    "Biko, achọrọ m ịzụ data",
    "abeg wetin happen to my delivery, e don late",
    "hello good morning",
    "thanks o",
    "ok, abeg check my balance",
    "Biko zụtakwa m airtime 1k", // one request with "-kwa" is still one
    "ina son in tura kudi ga kanwata", // one transfer
  ])('does not flag "%s"', (message) => {
    expect(abstainReason(message)).toBeUndefined();
  });

  it("never stands in the way of a handoff to a person", () => {
    expect(abstainReason("this bot is useless, get me a human")).toBe("complaint_about_reply");
    expect(abstainReason("this bot is useless, get me a human", "talk_to_human")).toBeUndefined();
    for (const refused of [
      "I no want talk to any human, just reverse my money", // pcm
      "Mi ò fẹ́ bá ènìyàn sọ̀rọ̀, owó mi ni mo fẹ́", // yo
      "Ba na so in yi magana da mutum, kudina nake so", // ha
      "Achọghị m ịso mmadụ kwuo okwu, ego m ka m chọrọ", // ig
    ])
      expect(abstainReason(refused, "talk_to_human")).toBe("negated_intent");
  });
});

describe("abstainReason: chatter that names a service", () => {
  it("keeps a complaint from an out_of_scope answer but lets plain chatter through", () => {
    expect(abstainReason("mtn dey mad dem don turn scammers sucking our mb anyhow", "out_of_scope")).toBe(
      "mentions_service",
    );
    expect(abstainReason("arsenal go win this season sha", "out_of_scope")).toBeUndefined();
    // Only the out_of_scope answer is guarded by service words: "data" is a routine request's word.
    expect(abstainReason("how I go buy data", "airtime_data")).toBeUndefined();
  });
});

describe("foldForRules", () => {
  it("folds tone marks, hooked letters and apostrophes so one pattern serves both spellings", () => {
    expect(foldForRules("Kí ló dé? Kuɗi don't")).toBe(" ki lo de ? kudi dont ");
  });
});
