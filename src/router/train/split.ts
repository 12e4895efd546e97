import type { LabelledExample } from "./corpus.js";

export type SplitName = "train" | "validation" | "test";

/** The corpus cut into train (70%), validation (15%) and test (15%) by near-duplicate group. */
export interface CorpusSplits {
  readonly train: readonly LabelledExample[];
  readonly validation: readonly LabelledExample[];
  readonly test: readonly LabelledExample[];
}

/** FNV-1a: a stable, dependency-free string hash for split assignment. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Words with digits and punctuation dropped: "₦5k to 0123456789" and "₦15k to 9876543210" sign alike. */
function signature(text: string): string[] {
  return [
    ...new Set(
      text
        .normalize("NFKC")
        .toLowerCase()
        .normalize("NFD")
        .replace(/\p{M}+/gu, "")
        .match(/\p{L}+/gu) ?? [],
    ),
  ].sort();
}

function jaccard(a: readonly string[], b: ReadonlySet<string>): number {
  if (a.length === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / (a.length + b.size - shared);
}

/**
 * Each example's merged group: the corpus's groups, joined where they hold
 * near-duplicates the corpus did not group (the same word signature anywhere
 * in the corpus, or a word-set Jaccard similarity of 0.8 or more within one
 * label). A merged group is named by its smallest text, so the names (and
 * what hashes them) are the same on every run and machine.
 */
export function mergedGroups(examples: readonly LabelledExample[]): string[] {
  const parent = examples.map((_, index) => index);
  const find = (index: number): number => {
    let root = index;
    while (parent[root] !== root) root = parent[root] as number;
    parent[index] = root;
    return root;
  };
  const union = (a: number, b: number) => {
    const rootA = find(a);
    const rootB = find(b);
    if (rootA !== rootB) parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
  };
  const firstOf = new Map<string, number>();
  const signatures = examples.map((example) => signature(example.text));
  examples.forEach((example, index) => {
    for (const key of [`g:${example.group}`, `s:${signatures[index]?.join(" ")}`]) {
      const first = firstOf.get(key);
      if (first === undefined) firstOf.set(key, index);
      else union(first, index);
    }
  });
  const byLabel = new Map<string, number[]>();
  examples.forEach((example, index) => {
    if (example.source.endsWith(".tsv")) return; // tweet pools: unrelated texts, skip the O(n²) pass
    byLabel.set(example.label, [...(byLabel.get(example.label) ?? []), index]);
  });
  for (const members of byLabel.values()) {
    const sets = members.map((index) => new Set(signatures[index]));
    for (let i = 0; i < members.length; i += 1)
      for (let j = i + 1; j < members.length; j += 1)
        if (jaccard(signatures[members[i] as number] ?? [], sets[j] as Set<string>) >= 0.8)
          union(members[i] as number, members[j] as number);
  }
  const smallestText = new Map<number, string>();
  examples.forEach((example, index) => {
    const root = find(index);
    const current = smallestText.get(root);
    if (current === undefined || example.text < current) smallestText.set(root, example.text);
  });
  return examples.map((example, index) => smallestText.get(find(index)) ?? example.text);
}

/**
 * Splits by merged group (see mergedGroups): each lands whole in one split,
 * chosen by a hash of its name.
 */
export function splitCorpus(examples: readonly LabelledExample[]): CorpusSplits {
  const groups = mergedGroups(examples);
  const train: LabelledExample[] = [];
  const validation: LabelledExample[] = [];
  const test: LabelledExample[] = [];
  examples.forEach((example, index) => {
    const bucket = fnv1a(groups[index] ?? example.text) % 100;
    // Rows with a cross-validation of their own (INJONGO) are never test rows: the test split stays comparable.
    (bucket < 70 ? train : bucket < 85 || example.crossValidated === true ? validation : test).push(example);
  });
  return { train, validation, test };
}
