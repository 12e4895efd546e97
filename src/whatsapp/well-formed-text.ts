// A NUL, or half of a surrogate pair with its other half missing: what JSON allows and stores refuse.
const ILL_FORMED = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with every NUL and lone surrogate replaced by U+FFFD (the replacement character). */
export function wellFormedText(text: string): string {
  ILL_FORMED.lastIndex = 0;
  return ILL_FORMED.test(text) ? text.replace(ILL_FORMED, "\uFFFD") : text;
}

/**
 * A JSON value with every string (keys too) made well-formed, so no store
 * write can fail on what a customer typed: PostgreSQL refuses NUL in text,
 * and a lone surrogate cannot be encoded as UTF-8. Values that need no
 * change are returned as they are.
 */
export function wellFormedJson(value: unknown): unknown {
  if (typeof value === "string") return wellFormedText(value);
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const clean = wellFormedJson(item);
      if (clean !== item) changed = true;
      return clean;
    });
    return changed ? items : value;
  }
  if (value === null || typeof value !== "object") return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const cleanKey = wellFormedText(key);
    const clean = wellFormedJson(item);
    if (clean !== item || cleanKey !== key) changed = true;
    return [cleanKey, clean] as const;
  });
  // fromEntries defines own properties, so a "__proto__" key stays data.
  return changed ? Object.fromEntries(entries) : value;
}
