import { createSeededRandom } from "../../random/index.js";
import { NEEDS_AGENT } from "../intents.js";
import type { LabelledExample } from "./corpus.js";

// Intents that carry a request of their own; greetings and thanks attach to any request without making it two.
const EXCLUDED = new Set(["greeting", "thanks_goodbye", "out_of_scope", "talk_to_human", NEEDS_AGENT]);
const JOINERS = [
  " and also ",
  ". ",
  ", also ",
  " abeg also ",
  " plus ",
  ". Another thing, ",
  " & ",
  "\n",
  " then ",
  ", and ",
];

/**
 * Synthetic "several requests in one message" hard negatives: two training
 * messages of different routine intents joined ("check my balance and also
 * where my order"), labelled needs_agent. Made from the training split only,
 * with a seeded PRNG, so the augmentation is part of the deterministic model
 * and never leaks test messages into training.
 */
export function multiRequestExamples(
  train: readonly LabelledExample[],
  count: number,
  seed: number,
): LabelledExample[] {
  const pool = train.filter((example) => !EXCLUDED.has(example.label) && example.text.length <= 120);
  if (pool.length < 2) return [];
  const random = createSeededRandom(seed);
  const pick = () => pool[Math.floor(random() * pool.length)] as LabelledExample;
  const out: LabelledExample[] = [];
  for (let attempt = 0; out.length < count && attempt < count * 10; attempt += 1) {
    const first = pick();
    const second = pick();
    if (first.label === second.label) continue;
    const joiner = JOINERS[Math.floor(random() * JOINERS.length)] as string;
    out.push({
      text: `${first.text.replace(/[.!?\s]+$/u, "")}${joiner}${second.text}`,
      label: NEEDS_AGENT,
      lang: first.lang === second.lang ? first.lang : "mix",
      group: `synthetic/${out.length}`,
      source: "synthetic multi-request",
    });
  }
  return out;
}
