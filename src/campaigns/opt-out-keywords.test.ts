import { describe, expect, it } from "vitest";
import { detectOptChange, type OptChange } from "./opt-out-keywords.js";

type Row = readonly [text: string, kind: OptChange["kind"], language: OptChange["language"]];

const POSITIVES: readonly Row[] = [
  // English
  ["STOP", "opt_out", "en"],
  ["stop", "opt_out", "en"],
  ["Unsubscribe", "opt_out", "en"],
  ["stop promotions", "opt_out", "en"],
  ["Stop sending me messages.", "opt_out", "en"],
  ["please stop", "opt_out", "en"],
  ["stop pls", "opt_out", "en"],
  ["STOP!!!", "opt_out", "en"],
  ["stop 🙏", "opt_out", "en"],
  ["Please remove me from your list", "opt_out", "en"],
  ["No more promos, thanks", "opt_out", "en"],
  ["don't send me messages again", "opt_out", "en"],
  ["ＳＴＯＰ", "opt_out", "en"],
  ["START", "opt_in", "en"],
  ["subscribe", "opt_in", "en"],
  ["unstop", "opt_in", "en"],
  ["Start again please", "opt_in", "en"],
  // Nigerian Pidgin
  ["abeg stop", "opt_out", "pcm"],
  ["Abeg stop am", "opt_out", "pcm"],
  ["I no want again", "opt_out", "pcm"],
  ["i no wan una message again o", "opt_out", "pcm"],
  ["make una stop", "opt_out", "pcm"],
  ["Make una stop to dey send me message abeg", "opt_out", "pcm"],
  ["comot me for list", "opt_out", "pcm"],
  ["Commot me for una list jare", "opt_out", "pcm"],
  ["no send me message again", "opt_out", "pcm"],
  ["una no dey send me msg again", "opt_out", "pcm"],
  ["abeg start", "opt_in", "pcm"],
  ["make una start again", "opt_in", "pcm"],
  // Yoruba, toned and untoned
  ["Ẹ dẹ́kun", "opt_out", "yo"],
  ["e dekun", "opt_out", "yo"],
  ["mi ò fẹ́ mọ́", "opt_out", "yo"],
  ["mi o fe mo", "opt_out", "yo"],
  ["Ẹ jọ̀ọ́, ẹ má fi ọ̀rọ̀ ránṣẹ́ sí mi mọ́", "opt_out", "yo"],
  ["e ma fi oro ranse si mi mo", "opt_out", "yo"],
  ["E dakun e dekun fifi oro ranse si mi", "opt_out", "yo"],
  ["e jowo stop", "opt_out", "yo"],
  ["Ẹ tún bẹ̀rẹ̀", "opt_in", "yo"],
  // Hausa, with and without hooked letters
  ["Ku daina", "opt_out", "ha"],
  ["daina", "opt_out", "ha"],
  ["ban so kuma", "opt_out", "ha"],
  ["Don Allah ku daina turo min saƙo", "opt_out", "ha"],
  ["dan allah ku daina turo min sako", "opt_out", "ha"],
  ["ku cire ni daga jerin", "opt_out", "ha"],
  ["don Allah stop", "opt_out", "ha"],
  ["Ku fara", "opt_in", "ha"],
  // Igbo, toned and untoned
  ["kwụsị", "opt_out", "ig"],
  ["kwusi", "opt_out", "ig"],
  ["Biko kwụsị", "opt_out", "ig"],
  ["achọghị m ọzọ", "opt_out", "ig"],
  ["achoghi m ozo", "opt_out", "ig"],
  ["Ezitela m ozi ọzọ", "opt_out", "ig"],
  ["biko stop", "opt_out", "ig"],
  ["malite", "opt_in", "ig"],
];

// Keywords inside real requests, chatter and questions: none is a request to stop campaigns.
const HARD_NEGATIVES: readonly string[] = [
  "when will the delivery stop being late?",
  "How do I stop my card?",
  "stop the transfer I sent by mistake",
  "please don't stop my subscription",
  "I want to start a business account",
  "I subscribed yesterday but no data",
  "which bus stop is close to your office",
  "cancel",
  "I no fit stop am",
  "abeg make una stop the debit, na third time be this",
  "if na play make una stop, how many una send me",
  "I no want the refund again, send the item",
  "comot me for queue, I don pay",
  "no send me message again until my money enter",
  "e don stop",
  "I no want",
  "dúró",
  "ẹ dúró",
  "e duro na",
  "ẹ dákun, ẹ dá owó tí wọ́n ń yọ lórí àkáǹtì mi dúró",
  "e dekun a n ge owo mi",
  "mi o fe ki won ge owo mi mo",
  "mo fẹ́ bẹ̀rẹ̀ àkáǹtì tuntun",
  "tsaya",
  "tsaya kadan",
  "ku daina cire min kudi",
  "na daina amfani da katin",
  "bana so",
  "zan fara biya gobe",
  "akwụsịla",
  "ọ kwụsịla ọrụ",
  "kwụsị ego ha na-ewepụ n'akaụntụ m",
  "achọghị m",
  "achọrọ m ịmalite akaụntụ ọhụrụ",
];

describe("detectOptChange", () => {
  it.each(POSITIVES)("%s → %s (%s)", (text, kind, language) => {
    expect(detectOptChange(text)).toMatchObject({ kind, language });
  });

  it("has enough positives per language and kind to mean something", () => {
    const count = (language: string) => POSITIVES.filter(([, , lang]) => lang === language).length;
    expect(count("en")).toBeGreaterThanOrEqual(8);
    expect(count("pcm")).toBeGreaterThanOrEqual(8);
    for (const language of ["yo", "ha", "ig"]) expect(count(language)).toBeGreaterThanOrEqual(5);
  });

  it.each(HARD_NEGATIVES)("leaves %j to the router", (text) => {
    expect(detectOptChange(text)).toBeUndefined();
  });

  it("never matches a positive that is part of a longer message", () => {
    for (const [text] of POSITIVES) {
      expect(detectOptChange(`${text} but first refund my money`), text).toBeUndefined();
      expect(detectOptChange(`why did you say ${text}`), text).toBeUndefined();
      expect(detectOptChange(`my account number is 0123456789 ${text}`), text).toBeUndefined();
    }
  });

  it("gives a long message up at its first word no opt change holds, but still reads a long repeat or a run of emoji", () => {
    const prose =
      "How far, my delivery address na 14 Adeola Odeku Street, Victoria Island, Lagos. The money don comot ";
    expect(detectOptChange(`${prose.repeat(6)}stop`)).toBeUndefined();
    expect(detectOptChange("STOP ".repeat(60))).toMatchObject({ kind: "opt_out", keyword: "stop" });
    expect(detectOptChange(`${"🙏 ".repeat(40)}abeg stop am`)).toMatchObject({
      kind: "opt_out",
      language: "pcm",
    });
    expect(detectOptChange(`${"word ".repeat(16)}stop`)).toBeUndefined();
  });

  it("reports the phrase without its wrapper, folded", () => {
    expect(detectOptChange("Abeg, STOP am 🙏🏾")).toEqual({
      kind: "opt_out",
      language: "pcm",
      keyword: "stop",
    });
    expect(detectOptChange("Mi ò fẹ́ ẹ mọ́ o")?.keyword).toBe("mi o fe e mo");
    expect(detectOptChange("pls stop sending me msgs")?.keyword).toBe("stop sending me message");
  });

  it("allows a short polite wrapper but nothing longer", () => {
    expect(detectOptChange("please sir stop o")?.kind).toBe("opt_out");
    expect(detectOptChange("abeg oga please stop o")).toBeUndefined();
    expect(detectOptChange("stop stop stop")?.kind).toBe("opt_out");
  });

  it("folds no word through Object.prototype: constructor and toString are words like any other", () => {
    for (const text of ["constructor", "toString", "stop constructor", "__proto__ stop", "hasOwnProperty"]) {
      expect(detectOptChange(text), text).toBeUndefined();
    }
  });

  it("reads nothing into empty or punctuation-only text", () => {
    for (const text of ["", "   ", "!!!", "🙏", "?"]) expect(detectOptChange(text), text).toBeUndefined();
  });
});
