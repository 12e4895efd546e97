const SKIPPED_TAGS = new Set(["PROPN", "NUM", "PUNCT", "SYM", "X"]);
const PLACEHOLDER_GLOSSES = new Set(["noun", "verb", "adj", "adv", "name"]);

/**
 * Derives `data/lexicon/pidgin-ud.tsv` from the Naija UD gloss list
 * (`pcm_gloss_lexicon.tsv`: form, count, upos, lemma, gloss_top, …): each
 * Pidgin form seen at least twice whose top gloss is an English word other
 * than the form itself ("wetin" → what, "sabi" → know, "pikin" → child).
 * Grammatical glosses (IPFV, PRF…) carry no meaning for routing and are
 * skipped; the hand-written pidgin-core.tsv covers those words. The output
 * is CC BY-SA 4.0, like its source, and says so in its header.
 */
export function deriveUdLexicon(glossTsv: string): string {
  const entries = new Map<string, string>();
  for (const line of glossTsv.split("\n").slice(1)) {
    const [form, count, upos, , glossTop] = line.split("\t");
    if (form === undefined || count === undefined || upos === undefined || glossTop === undefined) continue;
    if (Number(count) < 2 || SKIPPED_TAGS.has(upos)) continue;
    const base = (glossTop.split(".")[0] ?? "").replace(/\d+$/u, "");
    if (!/^[a-z][a-z_]*$/u.test(base) || PLACEHOLDER_GLOSSES.has(base)) continue;
    const canonical = base.replaceAll("_", " ");
    const cleanForm = form.trim().toLowerCase();
    if (!/^[\p{L}']+$/u.test(cleanForm) || cleanForm === canonical || entries.has(cleanForm)) continue;
    entries.set(cleanForm, canonical);
  }
  const header = [
    "# lang: pcm",
    "# source: derived by `sharpsharp router lexicon` from the UD_Naija-NSC treebank gloss list",
    "#   (pcm_gloss_lexicon.tsv; Caron, Courtin, Gerdes & Kahane 2019, A Surface-Syntactic UD Treebank for Naija;",
    "#   NaijaSynCor ANR-16-CE27-0007). Licence: CC BY-SA 4.0. This file and adaptations of it keep that licence.",
  ];
  const body = [...entries.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([f, c]) => `${f}\t${c}`);
  return `${[...header, ...body].join("\n")}\n`;
}
