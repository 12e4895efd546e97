/** One of a tenant's own intents as the classifier sees it (the reply lives with the other replies). */
export interface CustomIntentDefinition {
  readonly intent: string;
  readonly examples: readonly string[];
}

/** Fewer examples cannot be cross-validated; more are a sign the intent should be two. */
export const MIN_CUSTOM_EXAMPLES = 10;
export const MAX_CUSTOM_EXAMPLES = 30;
const INTENT_NAME = /^[a-z][a-z0-9_]*$/u;

function folded(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim();
}

/**
 * The problems with a tenant's `router.custom` (empty when there are none):
 * a name that is not snake_case or clashes with a router intent, a name
 * given twice, 10–30 examples each, no empty or repeated example (also
 * across intents: one phrasing cannot mean two things).
 */
export function checkCustomIntents(
  definitions: readonly CustomIntentDefinition[],
  isReserved: (name: string) => boolean,
): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  const owner = new Map<string, string>();
  definitions.forEach((definition, index) => {
    const where = `router.custom[${index}]`;
    const name = definition.intent;
    if (!INTENT_NAME.test(name))
      problems.push(`${where}.intent: "${name}" must be snake_case (a-z, 0-9, _), starting with a letter`);
    if (isReserved(name))
      problems.push(
        `${where}.intent: "${name}" is a router intent; give the tenant's own intent another name`,
      );
    if (names.has(name)) problems.push(`${where}.intent: "${name}" is defined twice`);
    names.add(name);
    const count = definition.examples.length;
    if (count < MIN_CUSTOM_EXAMPLES || count > MAX_CUSTOM_EXAMPLES)
      problems.push(
        `${where}.examples: ${count} examples; give between ${MIN_CUSTOM_EXAMPLES} and ${MAX_CUSTOM_EXAMPLES}`,
      );
    definition.examples.forEach((example, exampleIndex) => {
      const key = folded(example);
      if (key === "") {
        problems.push(`${where}.examples[${exampleIndex}] is empty`);
        return;
      }
      const first = owner.get(key);
      if (first !== undefined)
        problems.push(
          `${where}.examples[${exampleIndex}]: "${example}" repeats an example of ${first === name ? "the same intent" : `"${first}"`}`,
        );
      else owner.set(key, name);
    });
  });
  return problems;
}
