/**
 * JSON with object keys sorted (by UTF-16 code unit, at every depth) and
 * arrays in order, so equal data always gives the same text. Otherwise as
 * JSON.stringify: object properties that are undefined are left out,
 * undefined in an array and non-finite numbers become null.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const fields = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${fields.join(",")}}`;
}
