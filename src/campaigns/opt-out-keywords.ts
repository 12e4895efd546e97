/** A customer's request to stop (or restart) campaign messages, and the language they asked in. */
export interface OptChange {
  readonly kind: "opt_out" | "opt_in";
  readonly language: "en" | "pcm" | "yo" | "ha" | "ig";
  /** The normalised phrase that matched, without its polite wrapper ("stop", "mi o fe mo"). */
  readonly keyword: string;
}
type Language = OptChange["language"];
type Kind = OptChange["kind"];

// "(a|b|)" lists alternatives, an empty one making the group optional; phrases go through the
// same tokenizer as messages, so any spelling folds the same way. Left out on purpose, because
// real text uses them for something else: bare Yoruba "duro"/"e duro" and Hausa "tsaya" mostly
// mean "wait" ("e duro na"); Igbo "akwusila" reads as "it has stopped" or "do not stop"; Yoruba
// "bere"/"e bere" can be "ask" (beere); "I don't want" without "again" answers a question ("bana
// so", "achoghi m", "i no want"). "cancel", "end" and "quit" are order or call requests here.
const PHRASES: Readonly<Record<`${Kind} ${Language}`, readonly string[]>> = {
  "opt_out en": [
    "(stop|stop all|stopall|unsubscribe|unsub|opt out|optout|unsubscribe me)",
    "stop (promo|message|the message|these message|this message|all message|all promo)",
    "stop (sending|sending me|texting|texting me|messaging|messaging me|spamming me|contacting me) (promo |message |these message |this message |your message |)",
    "no more (promo|message)",
    "(dont|do not) (message|text|contact) me( again|)",
    "(dont|do not) send me (promo|message|these message|any message|any more message|anything)( again|)",
    "i dont want (your message|these message|this message|your promo|promo|message|any message)( anymore| again|)",
    "i dont want (it|them) (anymore|again)",
    "(remove|take) me (from|off) (the|your|this) (list|mailing list|broadcast list|broadcast)",
    "remove me",
  ],
  "opt_in en": [
    "(start|unstop|subscribe|resubscribe|re subscribe|opt in|optin|subscribe me)( again|)",
    "start (promo|message|sending me promo|sending me message)( again|)",
  ],
  "opt_out pcm": [
    "(i |me |)no (want|need) (am |una message |your message |message |any message |this message |these message |una promo |promo |)again",
    "(make una|una) stop( am|)",
    "(make una |una |)stop (to dey|dey) (send|sending) (me |)(message|promo|una message|this message|these message|all these message)( again|)",
    "(make una |una |)stop (to dey|dey) (send|disturb) me( again|)",
    "(make una |una |)no (dey |)send me (message |promo |anything |any message |una message |)again",
    "comot (me|my number|my name) (for|from) (the |una |this |your |)list",
    "remove (me|my number|my name) for (the |una |this |your |)list",
    "comot me",
  ],
  "opt_in pcm": [
    "(make una|una fit|una go) start( am|)( again|)",
    "(make una|una fit) (dey |start to dey |start dey )send me (message|promo|una message) again",
    "i (want|don ready to) dey (receive|get) una (message|promo) again",
  ],
  "opt_out yo": [
    "(e |)dekun",
    "(e |)dekun (fifi|ati ma fi|ati maa fi) (oro|ipolowo) ranse si mi",
    "(mi o|mio|emi o|emi ko|mi ko|n ko|nko) fe (e |won |oro yin |ipolowo yin |)mo",
    "(e |)ma (se |)(fi oro |fi ipolowo |)ranse si mi mo",
    "(e |)yo mi kuro( ninu (akojo|atoko|list)|)",
  ],
  "opt_in yo": ["(e |)tun bere", "(e |)tun (ma|maa) fi (oro|ipolowo) ranse si mi"],
  "opt_out ha": [
    "(ku |ka |ki |)(daina|dena)",
    "(ku |ka |ki |)(daina|dena) (turo|tura|aiko|aika) (min|mana)( da|)( sako| talla|)",
    "(ban|bana|ba na) so kuma",
    "(bana|ba na) (son|bukatar) (sakonku|sakon ku|tallanku|tallan ku)( kuma|)",
    "(ku |)cire ni( daga (jerin|cikin jerin|list)|)",
  ],
  "opt_in ha": ["(ku |)(fara|sake farawa)", "(ku |)ci gaba da (turo|aiko) (min|mana)( da|) (sako|talla)"],
  "opt_out ig": [
    "(unu |)(kwusi|kwusinu)( ya|)",
    "(unu |)kwusi (izitere|iziga|izigara) m ozi( ozo|)",
    "(unu |)(ezitela|ezitekwala|ezigala|ezigakwala) m ozi( ozo|)",
    "achoghi m (ya |ozi |ozi unu |)ozo",
    "achoghizi m( ya| ozi| ozi unu|)",
    "wepu m( na (list|ndeputa)|)",
  ],
  "opt_in ig": ["(malite|bido)( ozo|)", "malitegharia"],
};

// Allowed around a phrase (at most MAX_WRAPPER tokens in all). A language here decides the
// reply language when the phrase itself is English ("abeg stop" → pcm, "biko stop" → ig).
const WRAPPERS: readonly (readonly [string, Language | undefined])[] = (
  [
    [undefined, "please, kindly, thanks, thank you, sir, ma, madam, now, ok, o, oga"],
    ["pcm", "abeg, am, jare, jor, oya"],
    ["yo", "jowo, e jowo, joo, e joo, dakun, e dakun, e se"],
    ["ha", "don allah, dan allah, na gode, yallabai"],
    ["ig", "biko, biko nu, daalu, nna, nne"],
  ] as const
).flatMap(([language, words]) => words.split(", ").map((word) => [word, language] as const));
const MAX_WRAPPER = 3;
const MAX_TOKENS = 16;

// SMS and Pidgin spellings folded onto one form, so the phrase lists stay short. A Map, so that a word
// such as "constructor" is not looked up on Object.prototype.
const SPELLINGS: ReadonlyMap<string, string> = new Map(
  [
    "message: messages msg msgs mesage mesages messeges sms",
    "promo: promos promotion promotions promotional advert adverts ads advertisement advertisements",
    "please: pls plz plis pliz pleas plss pleez",
    "thanks: thx tnx tnks tanks",
    "stop: stopp stahp",
    "unsubscribe: unsuscribe unsubcribe unsubscibe unsubscrib",
    "again: agn agen",
    "comot: commot komot kommot",
    "want: wan; you: u; your: ur; the: d; this: dis; dont: donot",
    "sako: sakon sakonni saqo; talla: tallace; min: mini; ozo: ozoo",
  ]
    .flatMap((line) => line.split("; "))
    .flatMap((line) => {
      const [to = "", from = ""] = line.split(": ");
      return from.split(" ").map((word): [string, string] => [word, to]);
    }),
);

const FOLDED_LETTERS: Readonly<Record<string, string>> = { ɗ: "d", ƙ: "k", ɓ: "b", ƴ: "y", ɛ: "e", ɔ: "o" };

const PLAIN_WORD = /^([A-Za-z]+)[.,!?]*$/;

/** Case, width, tone marks, subdots and hooked letters folded; punctuation and emoji gone. */
function tokenize(text: string): string[] {
  // Most words are plain ASCII, for which the folding below is only case and repeated letters.
  const plain = PLAIN_WORD.exec(text)?.[1];
  if (plain !== undefined) {
    const word = plain.toLowerCase().replace(/([a-z])\1{2,}/g, "$1");
    return [SPELLINGS.get(word) ?? word];
  }
  const words = text
    .normalize("NFKC")
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/[ɗƙɓƴɛɔ]/gu, (letter) => FOLDED_LETTERS[letter] ?? letter)
    .replace(/(\p{L})['’`ʼ](?=\p{L})/gu, "$1")
    .replace(/(\p{L})\1{2,}/gu, "$1")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")
    .map((word) => SPELLINGS.get(word) ?? word);
  // "stop stop stop" is one stop; a repeat never turns a request into an opt-out.
  return words.filter((word, index) => word !== words[index - 1]);
}

/** "(a|b|)c" → ["ac", "bc", "c"], whitespace collapsed. */
function expand(pattern: string): string[] {
  const group = /\(([^()]*)\)/u.exec(pattern);
  if (group === null) return [pattern.replace(/\s+/gu, " ").trim()];
  const [whole, inner = ""] = group;
  return inner
    .split("|")
    .flatMap((choice) =>
      expand(pattern.slice(0, group.index) + choice + pattern.slice(group.index + whole.length)),
    );
}

// Phrases go through the same tokenizer as messages, so they may be written in any spelling.
const canonical = (phrase: string) => tokenize(phrase).join(" ");
// Reversed so that, where two lists share a phrase, the earlier list (English first) wins.
const PHRASE_TABLE: ReadonlyMap<string, OptChange> = new Map(
  Object.entries(PHRASES)
    .flatMap(([key, patterns]) => {
      const [kind, language] = key.split(" ") as [Kind, Language];
      return patterns
        .flatMap(expand)
        .map(canonical)
        .map((keyword) => [keyword, { kind, language, keyword }] as const);
    })
    .reverse(),
);
const WRAPPER_TABLE: ReadonlyMap<string, Language | undefined> = new Map(
  WRAPPERS.map(([wrapper, language]) => [canonical(wrapper), language]),
);

/** The languages of `tokens` read as a run of wrappers, or undefined if they are not one. */
function wrapperLanguages(tokens: readonly string[]): Language[] | undefined {
  if (tokens.length === 0) return [];
  for (const length of [2, 1]) {
    if (tokens.length < length) continue;
    const key = tokens.slice(0, length).join(" ");
    if (!WRAPPER_TABLE.has(key)) continue;
    const rest = wrapperLanguages(tokens.slice(length));
    if (rest === undefined) continue;
    const language = WRAPPER_TABLE.get(key);
    return language === undefined ? rest : [language, ...rest];
  }
  return undefined;
}

// Every token an opt change is made of: a message holding any other token is not one.
const VOCABULARY: ReadonlySet<string> = new Set(
  [...PHRASE_TABLE.keys(), ...WRAPPER_TABLE.keys()].flatMap((key) => key.split(" ")),
);
const WORDS = /\S+/gu;

/**
 * A text's tokens, as tokenize gives them, or undefined as soon as one is outside the vocabulary
 * or there are more than MAX_TOKENS. Every message of every turn comes here, most of them prose of
 * hundreds of characters, so the text is folded word by word (no token spans whitespace) and
 * given up at its first foreign word instead of being folded whole.
 */
function candidateTokens(text: string): string[] | undefined {
  const tokens: string[] = [];
  for (const [word] of text.matchAll(WORDS)) {
    for (const token of tokenize(word)) {
      if (!VOCABULARY.has(token)) return undefined;
      if (token !== tokens[tokens.length - 1]) tokens.push(token);
      if (tokens.length > MAX_TOKENS) return undefined;
    }
  }
  return tokens;
}

/**
 * Whether a message is (essentially) only a request to stop or restart campaign messages:
 * a known phrase, whole, with at most a short polite wrapper ("please stop", "abeg stop am",
 * "STOP!!! 🙏"). Never a keyword inside a longer message: a wrong opt-out silently costs
 * the customer messages they wanted, so anything unsure is left to the normal router.
 */
export function detectOptChange(text: string): OptChange | undefined {
  const tokens = candidateTokens(text);
  if (tokens === undefined || tokens.length === 0) return undefined;
  for (let start = 0; start <= Math.min(MAX_WRAPPER, tokens.length - 1); start += 1)
    for (let end = tokens.length; end > start && start + tokens.length - end <= MAX_WRAPPER; end -= 1) {
      const phrase = PHRASE_TABLE.get(tokens.slice(start, end).join(" "));
      if (phrase === undefined) continue;
      const before = wrapperLanguages(tokens.slice(0, start));
      const after = wrapperLanguages(tokens.slice(end));
      if (before === undefined || after === undefined) continue;
      const wrapperLanguage = [...before, ...after][0];
      if (phrase.language === "en" && wrapperLanguage !== undefined)
        return { ...phrase, language: wrapperLanguage };
      return phrase;
    }
  return undefined;
}
