/** What a redacted value is replaced with, as by pino's key redaction. */
export const CENSOR = "[redacted]";

/** Keys whose string value is redacted at any depth (pino's `redact` paths stop at two levels). */
const SENSITIVE_KEYS = [
  "appSecret",
  "app_secret",
  "verifyToken",
  "graphToken",
  "accessToken",
  "access_token",
  "token",
  "apiKey",
  "api_key",
  "x-api-key",
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "password",
  "passwd",
  "secret",
  "clientSecret",
  "client_secret",
  "text",
  "body",
  "caption",
];

// A JSON string's character, an escape taken whole: a match never ends inside `\"` nor leaves its string.
const JSON_CHAR = String.raw`(?:[^"\\]|\\.)`;

const capitalized = (word: string) => (word[0] ?? "").toUpperCase() + word.slice(1);

// The spellings a key is written in (token, Token; x-api-key, X-Api-Key), so the search can stay
// case-sensitive: V8 scans a case-insensitive alternation several times slower.
const spellings = (keys: readonly string[]) =>
  [
    ...new Set(keys.flatMap((key) => [key, capitalized(key), key.split("-").map(capitalized).join("-")])),
  ].join("|");

const USERINFO = /(?:[^\s/?#@"\\]|\\.)+@/y;

/**
 * The user:password@ of any URL (redis://, rediss://, postgres://, https://): found from each "://",
 * since a regex that has to find the scheme first tries every letter of the line.
 */
function redactUrlCredentials(line: string): string {
  let out = line;
  for (let at = out.indexOf("://"); at !== -1; at = out.indexOf("://", at + 3)) {
    USERINFO.lastIndex = at + 3;
    const found = USERINFO.exec(out);
    if (found !== null) out = `${out.slice(0, at + 3)}${CENSOR}@${out.slice(at + 3 + found[0].length)}`;
  }
  return out;
}

// key=value in a query string or a message; only looked for in a line with a "=", which few have.
const KEY_VALUE =
  /\b((?:access_|refresh_|id_)?token|client_secret|secret|password|passwd|api[_-]?key|apikey)=(?:[^\s&"\\]|\\.)+/gi;

/**
 * Secrets by what they look like, matched on the JSON line pino produced
 * (every depth, the message, an error's message and stack are all in it), in
 * one regular expression: one scan of the line finds them all. Phone numbers
 * look like none of these and stay as they are (they are masked by the
 * caller, see maskCustomerId).
 */
const SHAPES = [
  `"(?<jsonKey>${spellings(SENSITIVE_KEYS)})":"${JSON_CHAR}*"`,
  String.raw`\b(?<bearer>Bearer|bearer|BEARER)\s+[A-Za-z0-9._~+/=-]{8,}`,
  // An Authorization header copied into a message: its scheme and credentials.
  String.raw`\b(?<authLead>(?:[Pp]roxy-)?[Aa]uthorization\s*[:=]\s*)(?:[A-Za-z]+\s+)?(?:[^\s"\\,;]|\\.)+`,
  // Meta Graph API access tokens (user, system user, page, app).
  String.raw`\bEAA[A-Za-z0-9]{20,}`,
  // OpenAI-style API keys: sk-…, sk-proj-…, sk-ant-….
  String.raw`\bsk-[A-Za-z0-9_-]{16,}`,
];

interface Groups {
  readonly jsonKey?: string;
  readonly bearer?: string;
  readonly authLead?: string;
}

function replacement(groups: Groups): string {
  if (groups.jsonKey !== undefined) return `"${groups.jsonKey}":"${CENSOR}"`;
  if (groups.bearer !== undefined) return `${groups.bearer} ${CENSOR}`;
  if (groups.authLead !== undefined) return `${groups.authLead}${CENSOR}`;
  return CENSOR;
}

/** Known secrets shorter than this are not redacted by value: they would cut up ordinary words. */
export const MIN_KNOWN_SECRET_LENGTH = 8;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const SENSITIVE_SPELLINGS: ReadonlySet<string> = new Set(spellings(SENSITIVE_KEYS).split("|"));
// A sensitive key whose value is not a string (an object, an array, a number…): rare, so looked for first.
const SENSITIVE_NON_STRING = new RegExp(`[{,]"(?:${spellings(SENSITIVE_KEYS)})":[^"]`);

// JSON.parse's reviver visits every value, innermost first, without recursion of ours.
const censorReviver = (key: string, value: unknown) => (SENSITIVE_SPELLINGS.has(key) ? CENSOR : value);

/** A JSON copy of `value` with every sensitive key's value replaced, at any depth; CENSOR if it has no JSON form. */
export function censoredCopy(value: unknown): unknown {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? value : JSON.parse(json, censorReviver);
  } catch {
    return CENSOR;
  }
}

/** Said in place of a line that could not be read back to be redacted (it is dropped, not written as it was). */
const UNREDACTABLE = `${JSON.stringify({ level: 50, msg: "a log line could not be redacted and was dropped" })}\n`;

/**
 * A sensitive key's object, array, number or boolean value: the line is read back and written again
 * with each such value replaced. pino's `*.key` redaction paths did this for two levels, and cost
 * 14 µs on every line, most of a line's cost (bench/RESULTS.md); this looks at each line once.
 */
function censorNonStringValues(line: string): string {
  if (!SENSITIVE_NON_STRING.test(line)) return line;
  try {
    return `${JSON.stringify(JSON.parse(line, censorReviver))}${line.endsWith("\n") ? "\n" : ""}`;
  } catch {
    return UNREDACTABLE;
  }
}

/**
 * A function that redacts secrets from one serialized log line: values that
 * look like a secret (SHAPES, URL credentials, key=value), the values of
 * sensitive keys at any depth (strings in place, any other type by reading
 * the line back), and `knownSecrets` (the configured ones) wherever they
 * appear. The line stays valid JSON.
 */
export function createLineRedactor(knownSecrets: readonly string[] = []): (line: string) => string {
  const known = [...new Set(knownSecrets)]
    .filter((secret) => secret.length >= MIN_KNOWN_SECRET_LENGTH)
    // As the secret appears inside a JSON string; longest first, so one secret inside another goes whole.
    .map((secret) => JSON.stringify(secret).slice(1, -1))
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  const shapes = new RegExp([...SHAPES, ...known].join("|"), "g");
  const replace = (...args: unknown[]) => replacement(args[args.length - 1] as Groups);
  return (line) => {
    let out = censorNonStringValues(line).replace(shapes, replace);
    if (out.includes("://")) out = redactUrlCredentials(out);
    if (out.includes("=")) out = out.replace(KEY_VALUE, `$1=${CENSOR}`);
    return out;
  };
}
