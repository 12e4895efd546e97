import { isReplySlot, REPLY_SLOTS } from "./slot-words.js";

/** Placeholders that are not slots: what is missing, what was seen, and the `known` sentence. */
export const SPECIAL_PLACEHOLDERS = ["missing", "seen", "known"] as const;
export type SpecialPlaceholder = (typeof SPECIAL_PLACEHOLDERS)[number];

/** A reply text cut at its placeholders: literal text and `{name}` parts, in order. */
export type TemplatePart = string | { readonly name: string };
export type Template = readonly TemplatePart[];

/** What a template text failed on, told to the business owner who wrote it. */
export class TemplateSyntaxError extends Error {}

/**
 * Reads "I see {amount} {date}". `{{` and `}}` are literal braces; any other
 * brace must open or close a placeholder `{name}` whose name is a slot
 * (amount, date, account, reference, orderId, phone, bank) or one of
 * missing, seen, known. Which names a text may use depends on where it is
 * (checked by the caller).
 */
export function parseTemplate(text: string): Template {
  const parts: TemplatePart[] = [];
  let literal = "";
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    const next = text[index + 1];
    if ((char === "{" && next === "{") || (char === "}" && next === "}")) {
      literal += char;
      index += 2;
      continue;
    }
    if (char === "}") throw new TemplateSyntaxError(`unbalanced "}" at character ${index + 1}`);
    if (char !== "{") {
      literal += char;
      index += 1;
      continue;
    }
    const close = text.indexOf("}", index + 1);
    const nested = text.indexOf("{", index + 1);
    if (close < 0 || (nested >= 0 && nested < close))
      throw new TemplateSyntaxError(
        `unbalanced "{" at character ${index + 1} (write {{ for a literal brace)`,
      );
    const name = text.slice(index + 1, close).trim();
    if (!isReplySlot(name) && !(SPECIAL_PLACEHOLDERS as readonly string[]).includes(name))
      throw new TemplateSyntaxError(
        `unknown placeholder {${name}} (known: ${[...REPLY_SLOTS, ...SPECIAL_PLACEHOLDERS].join(", ")})`,
      );
    if (literal !== "") parts.push(literal);
    literal = "";
    parts.push({ name });
    index = close + 1;
  }
  if (literal !== "") parts.push(literal);
  return parts;
}

/** The placeholder names a template uses. */
export function placeholdersOf(template: Template): string[] {
  return template.flatMap((part) => (typeof part === "string" ? [] : [part.name]));
}

/** The template filled in; a name `values` lacks renders as nothing. */
export function fillTemplate(template: Template, values: (name: string) => string | undefined): string {
  return template.map((part) => (typeof part === "string" ? part : (values(part.name) ?? ""))).join("");
}

/** The longest the template can render, given the longest each placeholder can be. */
export function maxRenderedLength(template: Template, longest: (name: string) => number): number {
  return template.reduce(
    (sum, part) => sum + (typeof part === "string" ? part.length : longest(part.name)),
    0,
  );
}
