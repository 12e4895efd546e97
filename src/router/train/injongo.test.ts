import { describe, expect, it } from "vitest";
import { injongoFolds, loadInjongoLabelMap } from "../eval/cross-validate.js";
import { NEEDS_AGENT } from "../intents.js";
import { dataPath } from "../package-files.js";
import { loadCorpus } from "./corpus.js";
import { injongoGroups, injongoLabel, loadInjongo } from "./injongo.js";
import { splitCorpus } from "./split.js";

const dataDir = dataPath("router");
const { rows } = loadInjongo(dataDir);
const labelMap = loadInjongoLabelMap(dataDir);

describe("the INJONGO training half", () => {
  it("loads every row of the three languages", () => {
    expect(rows).toHaveLength(477 + 448 + 429);
    expect(new Set(rows.map((row) => row.example.lang))).toEqual(new Set(["ha", "ig", "yo"]));
  });

  it("trains each row as an intent the label map accepts for it, or needs_agent", () => {
    for (const row of rows.filter((row) => row.trains)) {
      const accepted = labelMap.get(row.injongoIntent) ?? [];
      expect([...accepted, NEEDS_AGENT], row.example.text).toContain(row.example.label);
    }
  });

  it("leaves out of training only the telco bills whose natural answer the map refuses", () => {
    const left = rows.filter((row) => !row.trains);
    expect(left.length).toBeLessThan(20);
    for (const row of left) expect(["bill_balance", "min_payment"]).toContain(row.injongoIntent);
  });

  it("splits the mixed INJONGO intents by keyword", () => {
    expect(injongoLabel("pay_bill", "Gaa n'ihu kwụọ ụgwọ ekwentị m")).toBe("airtime_data");
    expect(injongoLabel("pay_bill", "Dan Allah biya min kuɗin netflix")).toBe("bill_payment");
    expect(
      injongoLabel("interest_rate", "Èló gan ni ìwọ̀n owó èlé tí ó wà lórí gbèsè owó tí mo ya lọ́wọ́ Kuda?"),
    ).toBe("loan_inquiry");
    expect(injongoLabel("interest_rate", "Shin kuɗin ruwan ya shigo?")).toBe("out_of_scope");
    expect(injongoLabel("bill_balance", "Menene jimlar lissafin kuɗin dstv?")).toBe("bill_payment");
    expect(injongoLabel("bill_balance", "Èló ni mo san owó aṣọ náà kù?")).toBe("out_of_scope");
    expect(injongoLabel("transactions", "Onye ka m gaa kọọrọ maka azụmahịa ọ bụla m na-akwadoghị")).toBe(
      NEEDS_AGENT,
    );
    expect(injongoLabel("spending_history", "nawa na kashe a watan jiya?")).toBe("account_statement");
  });

  it("groups template variants that differ only in a bank or person name", () => {
    const groups = injongoGroups([
      { lang: "hau", intent: "transfer", text: "Tura ₦35000 asusun ajiyar kuɗin Lami", line: 2 },
      { lang: "hau", intent: "transfer", text: "Tura ₦40000 asusun ajiyar kuɗin Musa", line: 3 },
      { lang: "hau", intent: "balance", text: "Tura ₦40000 asusun ajiyar kuɗin Musa", line: 4 },
      {
        lang: "hau",
        intent: "transfer",
        text: "Koya min yadda zan tura kuɗi daga bankin unity zuwa GT?",
        line: 5,
      },
    ]);
    expect(groups[0]).toBe(groups[1]);
    expect(groups[2]).not.toBe(groups[1]);
    expect(groups[3]).not.toBe(groups[0]);
  });

  it("keeps a group in one cross-validation fold, and out of the test split", () => {
    const folds = injongoFolds(rows);
    const foldOfGroup = new Map<string, number>();
    rows.forEach((row, index) => {
      const seen = foldOfGroup.get(row.example.group);
      if (seen !== undefined) expect(folds[index]).toBe(seen);
      foldOfGroup.set(row.example.group, folds[index] as number);
    });
    expect(new Set(folds).size).toBe(5);
    const { test } = splitCorpus(loadCorpus(dataDir).examples);
    expect(test.some((example) => example.source.startsWith("injongo/"))).toBe(false);
  });
});
