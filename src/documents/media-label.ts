/** Longest caption or file name quoted to a model, in characters. */
export const MAX_QUOTED_CHARS = 300;

/** A byte count as a person reads it: "512 bytes", "48 KB", "2.4 MB" (1 KB = 1024 bytes). */
export function formatByteSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "unknown size";
  if (bytes < 1024) return `${Math.round(bytes)} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Customer-written text (a caption, a file name, text read off an image) on
 * one line for a model: line breaks and control characters become spaces,
 * double quotes become single ones (so a quote around it cannot be closed
 * early), at most `maxChars` characters with "…" when cut.
 */
export function flattenForModel(text: string, maxChars = MAX_QUOTED_CHARS): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/"/g, "'");
  const trimmed = flat.replace(/\s+/g, " ").trim();
  const chars = [...trimmed];
  return chars.length > maxChars ? `${chars.slice(0, maxChars - 1).join("")}…` : trimmed;
}

/** `flattenForModel` in double quotes. */
export function quoteForModel(text: string, maxChars = MAX_QUOTED_CHARS): string {
  return `"${flattenForModel(text, maxChars)}"`;
}
