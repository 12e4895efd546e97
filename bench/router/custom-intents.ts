/**
 * Custom intents: training time per tenant and precision/recall of a
 * restaurant's `menu` intent on phrasings written apart from its examples,
 * with the router's corpus test split as negatives (the classifier is
 * trained here on the train and validation splits only).
 *
 *   node dist/bench/router/custom-intents.js
 *
 * Needs `npm run build`.
 */
import type { TenantConfig } from "../../src/config/index.js";
import { createCustomIntentClassifier } from "../../src/router/custom/custom-intent-model.js";
import { trainTenantCustomIntents } from "../../src/router/custom/custom-intent-store.js";
import { customNegativesFrom, loadCustomNegatives } from "../../src/router/custom/custom-negatives.js";
import {
  HELD_OUT_BANKING,
  HELD_OUT_MENU,
  HELD_OUT_NOT_MENU,
  MENU_EXAMPLES,
} from "../../src/router/custom/restaurant-fixture.js";
import { type HeldOut, trainCustomIntents } from "../../src/router/custom/train-custom-intents.js";
import {
  dataPath,
  loadCorpus,
  loadIntentRouter,
  loadLexicon,
  resolveResponderSettings,
  routeTurn,
  splitCorpus,
} from "../../src/router/index.js";
import { normalizeMessage } from "../../src/router/normalize.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";

const router = loadIntentRouter();
const lexicon = loadLexicon();
let started = performance.now();
const corpus = loadCorpus(dataPath("router"));
const splits = splitCorpus(corpus.examples);
const negatives = customNegativesFrom([...splits.train, ...splits.validation], lexicon, corpus.sha256);
const sharedMs = performance.now() - started;
// What a worker pays once, when some tenant has to train at start: the whole corpus read and featurised.
started = performance.now();
const workerNegatives = loadCustomNegatives(lexicon);
const workerNegativesMs = performance.now() - started;

const tenant: TenantConfig = {
  id: "mama-put",
  settings: {
    router: {
      custom: [{ intent: "menu", examples: MENU_EXAMPLES, reply: { text: "Today's menu: jollof ₦2,500" } }],
    },
  },
} as unknown as TenantConfig;
const settings = resolveResponderSettings(tenant);
const times: number[] = [];
let trained = trainTenantCustomIntents("mama-put", settings.customIntents, {
  router,
  lexicon,
  negatives: () => negatives,
});
// CPU time as well as wall time: on a shared machine the wall clock also counts other processes' turns.
const cpuTimes: number[] = [];
for (let run = 0; run < 5; run += 1) {
  const cpu = process.cpuUsage();
  trained = trainTenantCustomIntents("mama-put", settings.customIntents, {
    router,
    lexicon,
    negatives: () => negatives,
  });
  const used = process.cpuUsage(cpu);
  cpuTimes.push((used.user + used.system) / 1000);
  times.push(trained.ms);
}
times.sort((a, b) => a - b);
cpuTimes.sort((a, b) => a - b);
const classifier = createCustomIntentClassifier(trained.model);
if (process.argv.includes("--details")) {
  trainCustomIntents({
    tenant: "x",
    hash: "",
    definitions: settings.customIntents,
    negatives: negatives.examples,
    lexicon,
    router,
    onHeldOut: (heldOut: readonly HeldOut[]) => {
      const top = heldOut
        .filter((item) => item.truth === 0 && item.best !== 0)
        .sort((a, b) => b.probability - a.probability);
      for (const item of top.slice(0, 10))
        out(`  held-out negative ${item.probability.toFixed(3)}: ${item.text}`);
      const own = heldOut.filter((item) => item.truth !== 0).sort((a, b) => a.probability - b.probability);
      for (const item of own)
        out(
          `  held-out example ${item.best === 0 ? "NONE" : ""} ${item.probability.toFixed(3)}: ${item.text}`,
        );
    },
  });
}
const tiered = { ...settings, tiers: { custom: { classifier, lexicon } } };

const message = (text: string): InboundMessage =>
  ({ wamid: "w", customer: { waId: "234" }, text, receivedAt: 0 }) as unknown as InboundMessage;
const answeredAsMenu = (text: string) => routeTurn(tiered, [message(text)], router).intent === "menu";
const rawMenu = (text: string) => classifier.score(normalizeMessage(text, lexicon)).confident;

const count = (texts: readonly string[], f: (text: string) => boolean) => texts.filter(f).length;
const menuHits = count(HELD_OUT_MENU, answeredAsMenu);
const bankingHits = count(HELD_OUT_BANKING, answeredAsMenu);
const notMenuHits = count(HELD_OUT_NOT_MENU, answeredAsMenu);
// Corpus messages of an intent the menu overlaps (product_inquiry: "menu pls") are menu questions for this tenant.
const overlapped = new Set(Object.values(trained.model.overlaps).flat());
const testNegatives = splits.test.filter((example) => !overlapped.has(example.label));
const testTexts = testNegatives.map((example) => example.text);
const testHits = testNegatives.filter((example) => answeredAsMenu(example.text));
const overlappedTest = splits.test.filter((example) => overlapped.has(example.label));
const overlappedHits = overlappedTest.filter((example) => answeredAsMenu(example.text));
const testRaw = count(testTexts, rawMenu);
const falseAnswers = bankingHits + notMenuHits + testHits.length;
const perMessageUs = (settingsFor: typeof settings) => {
  const texts = [...testTexts, ...testTexts];
  const begin = performance.now();
  for (const text of texts) routeTurn(settingsFor, [message(text)], router);
  return ((performance.now() - begin) / texts.length) * 1000;
};
const withCustomUs = perMessageUs(tiered);
const withoutCustomUs = perMessageUs(settings);

out(
  `shared negatives (load, split, featurise ${negatives.examples.length} corpus messages): ${sharedMs.toFixed(0)} ms once per process (bench); in a worker, loadCustomNegatives (${workerNegatives.examples.length} messages): ${workerNegativesMs.toFixed(0)} ms once`,
);
out(
  `training per tenant (menu, ${MENU_EXAMPLES.length} examples, 5-fold calibration + final fit): median ${times[2]?.toFixed(0)} ms, max ${times[4]?.toFixed(0)} ms wall; CPU median ${cpuTimes[2]?.toFixed(0)} ms, max ${cpuTimes[4]?.toFixed(0)} ms`,
);
out(
  `threshold ${JSON.stringify(trained.model.thresholds)}, overlaps ${JSON.stringify(trained.model.overlaps)}, cross-validated recall ${JSON.stringify(trained.model.calibration)}`,
);
out(
  `features kept ${trained.model.features.length}, file ~${(JSON.stringify(trained.model).length / 1024).toFixed(0)} KB`,
);
out(
  `held-out menu phrasings answered as menu: ${menuHits}/${HELD_OUT_MENU.length} (recall ${(menuHits / HELD_OUT_MENU.length).toFixed(2)})`,
);
out(`routine banking answered as menu: ${bankingHits}/${HELD_OUT_BANKING.length}`);
out(
  `needs-agent / chatter / other shop messages answered as menu: ${notMenuHits}/${HELD_OUT_NOT_MENU.length}`,
);
out(
  `corpus test split (all labels but ${[...overlapped].join(", ")}: routine banking, needs_agent, chatter, other shop intents) answered as menu: ${testHits.length}/${testTexts.length} (classifier alone, no gate: ${testRaw})`,
);
out(
  `corpus test split ${[...overlapped].join(", ")} answered as menu (right for a restaurant): ${overlappedHits.length}/${overlappedTest.length}`,
);
for (const example of testHits) out(`  ${example.label}: ${example.text}`);
out(`precision on these sets: ${(menuHits / Math.max(1, menuHits + falseAnswers)).toFixed(3)}`);
out(
  `routeTurn: ${withCustomUs.toFixed(1)} µs per message with the custom tier, ${withoutCustomUs.toFixed(1)} µs without`,
);

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}
