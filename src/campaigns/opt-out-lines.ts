import type { OptChange } from "./opt-out-keywords.js";

// The English keywords START and STOP work in every language (detectOptChange reads them
// from anyone), so each line names them rather than a translated keyword the customer
// might spell differently.
//
// Translations: kept short and plain. The Yoruba, Hausa and Igbo lines were written by a
// non-native speaker from dictionary forms (ìpolówó / talla / mgbasa ozi for "advert",
// Yoruba "A kò ní … mọ́", Hausa "Ba za mu … ba", Igbo "agaghị … ọzọ" for "will not … again")
// and should be checked by a native speaker before a campaign goes out.
const LINES: Readonly<Record<OptChange["kind"], Readonly<Record<OptChange["language"], string>>>> = {
  opt_out: {
    en: "You will no longer get promotions from us. Reply START to get them again.",
    pcm: "We no go send you promo message again. If you wan dey get am again, reply START.",
    yo: "A kò ní fi ìpolówó ránṣẹ́ sí yín mọ́. Ẹ fi START ránṣẹ́ tí ẹ bá fẹ́ máa gbà á padà.",
    ha: "Ba za mu sake turo muku talla ba. Ku turo START idan kuna so a dawo.",
    ig: "Anyị agaghị ezitere gị ozi mgbasa ozi ọzọ. Ọ bụrụ na ị chọrọ ịnata ha ọzọ, zaa START.",
  },
  opt_in: {
    en: "You will get our promotions again. Reply STOP at any time to stop them.",
    pcm: "We go dey send you promo message again. Reply STOP anytime wey you wan make we stop.",
    yo: "A ó tún máa fi ìpolówó ránṣẹ́ sí yín. Ẹ fi STOP ránṣẹ́ nígbàkígbà láti dá a dúró.",
    ha: "Za mu ci gaba da turo muku talla. Ku turo STOP a kowane lokaci don mu daina.",
    ig: "Anyị ga-amalite iziterekwa gị ozi mgbasa ozi. Zaa STOP mgbe ọ bụla ị chọrọ ka anyị kwụsị.",
  },
};

/** The one confirmation line the bot sends after an opt-out or opt-in, in the customer's language. */
export function optChangeLine(change: OptChange): string {
  return LINES[change.kind][change.language];
}
