import { foldDiacritics } from "./normalize.js";

/**
 * Why a message is left to the agent whatever the classifier says: the shapes
 * of message a canned answer gets wrong even when its intent is recognised.
 */
export type AbstainReason =
  | "several_requests"
  | "negated_intent"
  | "complaint_about_reply"
  | "asks_investigation"
  | "mentions_service";

/**
 * Lower case, tone marks and hooked letters folded, anything but letters,
 * digits and "?" turned into spaces, padded with a space each side, so the
 * patterns below can match whole words with " word " and need no \b (which
 * does not know Yoruba or Igbo letters). Apostrophes vanish: "don't" → "dont".
 */
export function foldForRules(text: string): string {
  const folded = foldDiacritics(text.normalize("NFKC").toLowerCase())
    .replace(/['’‘`]/gu, "")
    .replace(/\?/gu, " ? ")
    .replace(/[^\p{L}\p{N}?]+/gu, " ")
    .trim();
  return ` ${folded} `;
}

const words = (...alternatives: string[]) => new RegExp(` (?:${alternatives.join("|")}) `, "u");

// A question about a past event, or a request to look into one: the agent (or
// a person) has to look at the account; a canned "send your details" is not it.
const INVESTIGATION = words(
  // English and Pidgin
  "what happened (?:to|with) (?:my|the) (?:money|account|transfer|transaction|payment|funds)",
  "wetin (?:happen|happened|do|sup with|concern)(?: to| with)? my (?:money|account|acct|transfer|transaction|payment|funds)",
  "why (?:was|were|am|have|has|did|is|are|do|una|dem|you|u|una dey|dem dey|e|una don|dem don|you don|d|the|this|my|money)(?: [a-z]+){0,4} (?:debit|debited|deduct|deducted|charge|charged|cut|remove|removed|collect|collected|take|took|taken|chop|chopped|withdraw|withdrawn|reverse|reversed|block|blocked|hold|held|freeze|frozen|restrict|restricted)",
  "(?:trace|track down|investigate|look into|dispute|chargeback|charge back)",
  "find out (?:what happened|what went wrong|why|wetin happen|who|where my money)",
  "(?:charged|debited|deducted|debit|deduct|charge|cut) (?:me )?(?:twice|two times|double|2 times|thrice)",
  "double (?:debit|charge|deduction)",
  // Charged another amount than the one paid: "I bought N1000 airtime but was debited N10,000".
  "(?:bought|buy|sent|send|paid|pay|withdrew|withdraw|recharged|transferred|transfer) (?:n ?)?\\d[\\d ]*k?(?: [a-z0-9]+){0,8} but (?:was |i was |dem |una |they |you |u |my account was )?(?:debited|charged|deducted|debit|charge|deduct|cut|removed|remove) (?:me )?(?:n ?)?\\d[\\d ]*k?",
  "(?:unauthori[sz]ed|i (?:did not|didnt|never|no) (?:authori[sz]e|make|do|carry out|initiate) (?:this|that|dis|dat|the|any|am))",
  "i no (?:do|make|authori[sz]e) (?:am|dis|dat|this|that|any)(?: transaction| transfer| debit)?",
  "who (?:take|took|collect|collected|remove|removed|withdraw|withdrew) (?:my|the) money",
  "(?:fraud|fraudulent|scam|scammed|hacked|hack)",
  "how (?:my|the) money (?:take|take take|just|con) (?:cut|comot|loss|lost|disappear|vanish|reduce)",
  "check (?:wetin|what) (?:happen|happened|go on|sup|went wrong)",
  // Yoruba: "kí ló ṣẹlẹ̀" (what happened), "kí ló dé tí" (why), "ẹ bá mi wádìí" (investigate), "dá owó mi padà" (return my money)
  "(?:ki lo sele|kin lo sele|kini o sele) si (?:owo|akanti|akaunti|transfer)",
  "(?:ki lo de ti|kilode ti|kilo de ti) (?:won|e|eyin) (?:fi )?(?:yo|ge|gba|mu|je) owo",
  "(?:ba mi wadi|ba mi wadii|se iwadi|se iwadii|wadi re|wadii re)",
  // Hausa: "me ya faru" (what happened), "don me / me yasa aka cire" (why was it deducted), "bincika" (investigate), "mayar min da kudi"
  "(?:me ya faru|mai ya faru|me ya same) (?:da|ga) (?:kudi|kudin|account|asusu)",
  "(?:me yasa|meyasa|mai yasa|don me|saboda me) (?:aka|kuka|suka|an) (?:cire|caje|dauki|kwashe)",
  "(?:bincika|binciki|bincike|a bincika)",
  // Igbo: "gịnị mere" (what happened), "n'ihi gịnị / maka gịnị ... wepụrụ" (why ... removed), "nyochaa" (investigate), "chọpụta" (find out), "weghachi" (return)
  "(?:gini mere|kedu ihe mere) (?:ego|na ego|n account|account|na account)",
  "(?:nihi gini|maka gini|gini kpatara)(?: ka)?(?: unu| ha| o| e)? (?:wepuru|wepu|napuru|bebiri)",
  "(?:nyochaa|nyocha|choputa)",
);

// The customer says what they do NOT want ("I no want check balance, my money
// cut"): the intent's words are in the message, the intent is not.
const NEGATED_INTENT = words(
  "(?:i|me) (?:dont|do not|no|nor|never) (?:want|wan|wanna|need|dey ask|ask|dey ask for)(?: to)? (?:check|know|buy|see|ask about|ask for|talk about|open|apply for|load|recharge|balance|data|airtime|statement|loan)(?: [a-z]+){0,3} (?:i|my|but|abeg|na|just)",
  "(?:i|me) (?:dont|do not|no|nor|never) (?:want|wan|wanna|need)(?: to)? (?:talk|speak|chat)(?: to| with)(?: any| a| the)? (?:human|person|agent|customer care|somebody|anybody|someone|anyone)",
  "(?:im|i am) not (?:asking|talking|trying|here|writing|messaging)(?: about| for| to)?",
  "(?:thats|that is|this is|it is|its) not what i (?:asked|want|wanted|mean|meant|said)",
  "not (?:about|asking about|asking for) (?:my )?(?:balance|data|airtime|statement|loan|card|order|transfer|delivery|price|refund)",
  "no be (?:balance|data|airtime|statement|loan|card|transfer|price|am|dat|that|dis|this)(?: [a-z]+){0,3} (?:i dey ask|i ask|i dey talk|i talk|i mean|i wan know|i want know)",
  "no be wetin i (?:ask|dey ask|talk|dey talk|mean)",
  "no be say i (?:wan|want|dey)",
  // Yoruba: "mi ò fẹ́ …" (I don't want), "kì í ṣe … ni mo" (it is not … that I)
  "(?:mi o fe|emi o fe|mi ko fe) (?:wo|mo iye|ra|beere)(?: [a-z]+){0,3} (?:sugbon|mo fe|owo mi)",
  "(?:mi o fe|emi o fe|mi ko fe) (?:ba|ba awon) (?:eniyan|enikan|eeyan|agent|customer care)(?: kankan)? (?:soro|so)",
  "(?:ki i se|kii se|kii n se|ki se) (?:iyen|owo|data|kaadi|kadi|balance)(?: [a-z]+){0,3} ni mo (?:n beere|beere|fe mo)",
  // Hausa: "ba na so in …" / "bana son …" (I don't want), "ba … nake nema ba" (it is not … I want)
  "(?:ba na so|bana so|ba na son|bana son|ba ni so|bani so) (?:in|na|a|ka)? ?(?:duba|sani|saya|sayi|tura|bincika|gani|ji)",
  "ba (?:wannan|shi|balance|data|kati|katin)(?: [a-z]+){0,2} (?:nake|na ke|nake so|nake nema|na tambaya) ",
  "(?:ba na so|bana so|ba na son|bana son|ba ni so|bani so) (?:in |na )?(?:yi )?magana da (?:mutum|wani|mutane|agent)",
  // Igbo: "achọghị m …" (I don't want), "ọ bụghị … ka m" (it is not … that I)
  "(?:achoghi m|achoghim|a choghi m|anaghị m acho|anaghi m acho) (?:ilele|ima|izu|igota|iziga|ele|ma|zuo|zu|hu|ihu|ebe)",
  "(?:o bughi|obughi|abughi) (?:nke a|nke ahu|balance|data|kaadi|ego)(?: [a-z]+){0,3} (?:ka m|ka mu|ihe m)",
  "(?:achoghi m|achoghim|a choghi m) (?:ikwu|iso|ka m|ikwurita)(?: [a-z]+){0,2} (?:mmadu|onye|agent)",
);

// A complaint about the bot or a previous answer: repeating the canned answer
// would make it worse.
const COMPLAINT_ABOUT_REPLY = words(
  "(?:that|this|dat|dis|it|e|you|u|una|your (?:answer|reply)) (?:no|didnt|did not|does not|doesnt|dont|do not|never|has not|hasnt) (?:answer|answered|address|addressed|solve|solved|help|helped|respond to) (?:my|me|the|mine)",
  "(?:you|u|una|yall|you people|una people) (?:no|dont|do not|are not|aint|never|arent) (?:dey )?(?:hear|hearing|listen|listening|understand|understanding|reading|read)",
  "(?:you|u|una) no (?:sabi|get sense|dey read)",
  "(?:useless|stupid|dumb|rubbish|nonsense|foolish|silly|annoying|mumu|yeye) (?:bot|robot|machine|reply|replies|answer|answers|response|auto ?reply)",
  "(?:bot|robot|machine|auto ?reply|automated reply|this chat) (?:is |dey |be )?(?:useless|stupid|dumb|rubbish|nonsense|annoying|mumu|yeye|not helping|no dey help)",
  "(?:same|the same) (?:reply|replies|answer|answers|message|response|thing|tin) (?:again|over and over|every time|everytime|all the time|i dey get|you dey send)",
  "(?:stop|una should stop|abeg stop) (?:sending|send|dey send|repeating|repeat) (?:me )?(?:the same|same|this|dis|that|dat)",
  "(?:you|u|una|yall) (?:keep|dey|de) (?:repeating|repeat|send(?:ing)? (?:me )?(?:the )?same)",
  "(?:i|i have|ive|i don) (?:already )?(?:told|tell|explained|explain|said|talk) (?:you|u|una|yall|this|dis|am)(?: before| already| times| since)",
  "(?:as|like) i (?:said|talk|tell you|told you|explain|explained) (?:before|earlier|already)",
  "(?:are you|r u|you be|u be|na) (?:a )?(?:bot|robot|machine)",
  "(?:nobody|no one|noone|no body) (?:has |have |dey |don |is )?(?:responded|respond|replied|reply|answered|answer|attended|attend)",
  "(?:\\d+(?:st|nd|rd|th)?|second|third|fourth|fifth|umpteenth) time (?:i am |im )?(?:messaging|writing|asking|complaining|sending|texting)",
  "(?:not|no be) (?:what|wetin) i (?:asked|ask|dey ask|want|talk|said)",
  "(?:read|reading) my (?:message|messages|question) (?:well|again|properly)",
  // Yoruba: "ẹ ò gbọ́" (you don't hear), "kò yé yín" (you don't understand), "kì í ṣe ohun tí mo béèrè" (not what I asked), "mo ti sọ" (I've said)
  "(?:e o gbo|eyin o gbo|e ko gbo|e o gbo ohun)",
  "(?:ko ye yin|ko ye e|oye ko ye yin)",
  "(?:ki i se|kii se|ko je) ohun ti mo (?:beere|so|fe)",
  "mo ti so (?:fun yin|fun e|tele|ri)",
  "(?:idahun|esi) (?:yin|yi|yii) (?:ko|o) (?:wulo|dahun|ba)",
  // Hausa: "ba ku fahimta ba" (you don't understand), "ba abin da na tambaya ba" (not what I asked), "na riga na faɗa" (I already said)
  "ba (?:ku|ka|ki) (?:fahimta|fahimci|ji|gane)",
  "ba abin da na (?:tambaya|fada|ce|nema)",
  "na riga na (?:fada|fadi|gaya|ce|tura)",
  "(?:amsar|amsa) (?:ku|ka|ta|nan) ba",
  // Igbo: "unu aghọtaghị" (you don't understand), "ọ bụghị ihe m jụrụ" (not what I asked), "agwala m unu" (I've told you)
  "(?:unu aghotaghi|i ghotaghi|unu anughi|i nughi)",
  "(?:o bughi|obughi|abughi) ihe m (?:juru|kwuru|choro)",
  "(?:agwala m unu|a gwala m unu|agwaala m unu|akoola m)",
  "(?:aziza|ozizi) (?:unu|gi) (?:abaghi|adighi)",
);

// An acknowledgement then "but", at the start: an answer to the bot's last reply that did not settle
// the matter ("thanks, but the money still never enter", "na gode, amma har yanzu…", "e se, sugbon…").
const UNSETTLED_AFTER_REPLY =
  /^ (?:ok|okay|alright|thanks|thank you|tanks|na gode|nagode|daalu|dalu|e se|ese|e seun)(?: o| oo| sir| ma)? (?:but|bt|amma|sugbon|mana|kama) /u;

// Request topics, for telling two requests from one request with two details.
const TOPICS: readonly RegExp[] = [
  words("balance", "bal", "how much (?:dey|is|remain|i get|do i have|i have)(?: in)? my account"),
  words("airtime", "recharge", "data", "bundle", "data plan", "top up", "topup"),
  words("card", "atm card", "debit card", "kaadi", "kati", "katin"),
  words("statement", "transaction history", "history"),
  words("loan", "borrow", "credit limit", "bashi", "ego mbinye"),
  words("order", "delivery", "deliver", "rider", "package", "parcel", "tracking"),
  words("refund", "money back"),
  words(
    "transfer",
    "send money",
    "tura kudi",
    "tura",
    "fi owo ranse",
    "fi ranse",
    "ziga ego",
    "iziga",
    "ziga",
  ),
  words("dstv", "gotv", "startimes", "electricity", "light bill", "prepaid", "meter", "token", "bill"),
  words("price", "cost", "menu", "how much be", "how much is", "do you (?:have|sell)"),
  words(
    "address",
    "location",
    "opening hours",
    "open (?:on|today|by|till)",
    "close (?:on|today|by)",
    "branch",
  ),
];
// "And also" words that start a second request (English, Pidgin, Yoruba, Hausa, Igbo).
const ANOTHER_REQUEST = new RegExp(
  ` (?:${[
    "also",
    "and also",
    "another thing",
    "another question",
    "one more thing",
    "secondly",
    "second thing",
    "in addition",
    "plus",
    "as well",
    "another tin",
    "and again",
    "then",
    "ati pe",
    "bakan naa",
    "ohun miiran",
    "kuma",
    "sannan",
    "bayan haka",
    "wani abu",
    "ozokwa",
    "ozo kwa",
    "ihe ozo",
    "na kwa",
  ].join("|")}) `,
  "gu",
);

// Igbo marks "also" on the verb ("zụtakwa m airtime": buy me airtime too); "kwa" alone is in ANOTHER_REQUEST.
const IGBO_ALSO_VERB = / (?=\p{L}{2,}kwa )/u;

function topicsOf(part: string): Set<number> {
  const found = new Set<number>();
  TOPICS.forEach((topic, index) => {
    if (topic.test(part)) found.add(index);
  });
  return found;
}

/** Two parts, split at an "and also" word, that each ask about a different topic. */
function hasSeveralRequests(folded: string): boolean {
  // One question and a remark ("block my card? I'm in hospital") is one request; two questions may be two.
  const questions = folded.split("?").length - 1;
  const parts = folded
    .split(ANOTHER_REQUEST)
    .flatMap((part) => part.split(IGBO_ALSO_VERB))
    .flatMap((part) => (questions >= 2 ? part.split("?") : [part]))
    .map((part) => ` ${part.trim()} `);
  if (parts.length < 2) return false;
  const seen = new Set<number>();
  let askingParts = 0;
  for (const part of parts) {
    const topics = topicsOf(part);
    if (topics.size === 0) continue;
    const fresh = [...topics].some((topic) => !seen.has(topic));
    if (askingParts > 0 && fresh) return true;
    askingParts += 1;
    for (const topic of topics) seen.add(topic);
  }
  return false;
}

// Service words: a message that names one is not idle chatter, whatever it
// sounds like (real complaints read like tweets). The same idea as the filter
// that built the chatter pools: none of their tweets has one of these words.
const SERVICE_WORDS = words(
  "account",
  "acct",
  "acc",
  "transfer",
  "transaction",
  "debit",
  "debited",
  "deduct",
  "deducted",
  "credit",
  "credited",
  "alert",
  "card",
  "atm",
  "pos",
  "data",
  "airtime",
  "recharge",
  "network",
  "sms",
  "sim",
  "mb",
  "gb",
  "sub",
  "subscription",
  "subscribe",
  "bundle",
  "bank",
  "banks",
  "banki",
  "charge",
  "charges",
  "charged",
  "refund",
  "reversal",
  "reverse",
  "order",
  "delivery",
  "deliver",
  "rider",
  "loan",
  "balance",
  "wallet",
  "app",
  "bill",
  "payment",
  "customer care",
  "customer service",
  "decoder",
  "meter",
  "token",
  "otp",
  "bvn",
  "mtn",
  "glo",
  "airtel",
  "9mobile",
  "etisalat",
  "smile",
  "spectranet",
  "gtb",
  "gtbank",
  "zenith",
  "uba",
  "firstbank",
  "fidelity",
  "sterling",
  "wema",
  "stanbic",
  "ecobank",
  "fcmb",
  "opay",
  "palmpay",
  "kuda",
  "moniepoint",
  "paystack",
  "flutterwave",
  "jumia",
  "konga",
  "dstv",
  "gotv",
  "startimes",
  "phcn",
  "nepa",
  "ekedc",
  "ikedc",
  "taxify",
  "bolt",
  "uber",
  "sportybet",
  "akanti",
  "akaunti",
  "asusu",
  "kati",
  "katin",
  "kaadi",
);

/**
 * The reason a message must go to the agent whatever its intent scores, or
 * undefined (for talk_to_human, the handoff, only a refused handoff). Checked in order: a complaint about the bot, a negated intent,
 * an investigation, several requests; and, when the best intent is
 * out_of_scope, a service word (a complaint is not chatter).
 */
export function abstainReason(text: string, intent?: string): AbstainReason | undefined {
  const folded = foldForRules(text);
  // A handoff to a person is what every reason but a refused handoff asks for: never stand in its way.
  if (intent === "talk_to_human") return NEGATED_INTENT.test(folded) ? "negated_intent" : undefined;
  if (COMPLAINT_ABOUT_REPLY.test(folded) || UNSETTLED_AFTER_REPLY.test(folded))
    return "complaint_about_reply";
  if (NEGATED_INTENT.test(folded)) return "negated_intent";
  if (INVESTIGATION.test(folded)) return "asks_investigation";
  if (hasSeveralRequests(folded)) return "several_requests";
  if (intent === "out_of_scope" && SERVICE_WORDS.test(folded)) return "mentions_service";
  return undefined;
}
