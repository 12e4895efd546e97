// What JSON allows and stores refuse: a NUL, or half of a surrogate pair with its other half missing
// (String.prototype.isWellFormed finds the latter natively, far faster than a regular expression).
const holdsIllFormedText = (text: string): boolean => !text.isWellFormed() || text.includes("\0");

/** The text with every NUL and lone surrogate replaced by U+FFFD (the replacement character). */
export function wellFormedText(text: string): string {
  return holdsIllFormedText(text) ? text.toWellFormed().replaceAll("\0", "\uFFFD") : text;
}

// The only way a JSON text decoded from UTF-8 can yield NUL or a lone surrogate: a \u escape of one.
const ILL_FORMED_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/**
 * Whether JSON text decoded from UTF-8 bytes may parse to an ill-formed
 * string. Such text holds no literal NUL (JSON.parse refuses control
 * characters) and no lone surrogate (UTF-8 decoding replaces them), so only
 * an escape can make one. `false` means the parsed value needs no cleaning;
 * `true` may be a false alarm (an escaped emoji, an escaped backslash).
 */
export function jsonTextMayHoldIllFormed(text: string): boolean {
  return ILL_FORMED_ESCAPE.test(text);
}

/**
 * A JSON value with every string (keys too) made well-formed, so no store
 * write can fail on what a customer typed: PostgreSQL refuses NUL in text,
 * and a lone surrogate cannot be encoded as UTF-8. Values that need no
 * change are returned as they are.
 */
export function wellFormedJson(value: unknown): unknown {
  // Nearly every body is clean: one walk that allocates nothing says so.
  return holdsIllFormed(value) ? rebuilt(value) : value;
}

function holdsIllFormed(value: unknown): boolean {
  if (typeof value === "string") return holdsIllFormedText(value);
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsIllFormed(item)) return true;
    return false;
  }
  for (const key in value) {
    if (holdsIllFormedText(key) || holdsIllFormed((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function rebuilt(value: unknown): unknown {
  if (typeof value === "string") return wellFormedText(value);
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const clean = rebuilt(item);
      if (clean !== item) changed = true;
      return clean;
    });
    return changed ? items : value;
  }
  if (value === null || typeof value !== "object") return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const cleanKey = wellFormedText(key);
    const clean = rebuilt(item);
    if (clean !== item || cleanKey !== key) changed = true;
    return [cleanKey, clean] as const;
  });
  // fromEntries defines own properties, so a "__proto__" key stays data.
  return changed ? Object.fromEntries(entries) : value;
}
