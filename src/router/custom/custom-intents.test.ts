import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import type { TenantConfig } from "../../config/index.js";
import { ResponderSettingsError } from "../../conversation/index.js";
import type { InboundMessage } from "../../whatsapp/index.js";
import { routeTurn } from "../first-responder.js";
import { type IntentRouter, loadIntentRouter } from "../intent-router.js";
import { type Lexicon, loadLexicon } from "../lexicon.js";
import { normalizeMessage } from "../normalize.js";
import { dataPath } from "../package-files.js";
import { type ResponderSettings, resolveResponderSettings } from "../responder-settings.js";
import { runRouterCommand } from "../router-cli.js";
import { customIntentTier } from "../tiers/custom-intent-tier.js";
import { withTenantTiers } from "../tiers/tenant-tiers.js";
import { type LabelledExample, loadCorpus } from "../train/corpus.js";
import { splitCorpus } from "../train/split.js";
import { createCustomIntentClassifier } from "./custom-intent-model.js";
import {
  customIntentsFile,
  loadOrTrainCustomIntents,
  trainTenantCustomIntents,
} from "./custom-intent-store.js";
import { type CustomNegatives, customNegativesFrom } from "./custom-negatives.js";
import { HELD_OUT_BANKING, HELD_OUT_MENU, HELD_OUT_NOT_MENU, MENU_EXAMPLES } from "./restaurant-fixture.js";

const MENU_REPLY = { text: "Today's menu: jollof ₦2,500, fried rice ₦2,800, amala and ewedu ₦2,000" };

const tenant = (settings: Record<string, unknown>): TenantConfig =>
  ({ id: "mama-put", settings }) as unknown as TenantConfig;
const restaurant = (examples: readonly string[] = MENU_EXAMPLES) =>
  tenant({
    router: {
      custom: [{ intent: "menu", examples, reply: MENU_REPLY }],
      replyIds: { btn_menu: "menu" },
    },
  });

let seq = 0;
const message = (text: string, fields: Partial<InboundMessage> = {}): InboundMessage =>
  ({
    tenantId: "mama-put",
    phoneNumberId: "1",
    wabaId: "1",
    conversationKey: "mama-put:1:234",
    wamid: `w${seq++}`,
    timestamp: 1,
    receivedAt: 1000,
    type: "text",
    customer: { waId: "234" },
    text,
    ...fields,
  }) as InboundMessage;

const problemsOf = (settings: Record<string, unknown>): string => {
  try {
    resolveResponderSettings(tenant(settings));
  } catch (error) {
    expect(error).toBeInstanceOf(ResponderSettingsError);
    return (error as Error).message;
  }
  throw new Error("expected a ResponderSettingsError");
};

describe("router.custom settings", () => {
  const custom = (intent: string, examples: readonly string[], reply: unknown = MENU_REPLY) => ({
    router: { custom: [{ intent, examples, reply }] },
  });

  it("names the tenant and the field for too few or too many examples", () => {
    expect(problemsOf(custom("menu", MENU_EXAMPLES.slice(0, 9)))).toMatch(
      /tenant "mama-put".*router\.custom\[0\]\.examples: 9 examples; give between 10 and 30/,
    );
    const many = Array.from({ length: 31 }, (_, index) => `menu number ${index}`);
    expect(problemsOf(custom("menu", many))).toMatch(/router\.custom\[0\]\.examples: 31 examples/);
  });

  it("refuses a name that is a router intent, a name given twice and repeated examples", () => {
    expect(problemsOf(custom("product_inquiry", MENU_EXAMPLES))).toMatch(
      /router\.custom\[0\]\.intent: "product_inquiry" is a router intent/,
    );
    expect(problemsOf(custom("needs_agent", MENU_EXAMPLES))).toMatch(/is a router intent/);
    const twice = (second: string) => ({
      router: {
        custom: ["menu", second].map((intent) => ({ intent, examples: MENU_EXAMPLES, reply: MENU_REPLY })),
      },
    });
    expect(problemsOf(twice("menu"))).toMatch(/router\.custom\[1\]\.intent: "menu" is defined twice/);
    expect(problemsOf(twice("dishes"))).toMatch(
      /router\.custom\[1\]\.examples\[0\]: "wetin una get for menu" repeats an example of "menu"/,
    );
    expect(problemsOf(custom("menu", [...MENU_EXAMPLES.slice(0, 12), "Send me your MENU"]))).toMatch(
      /examples\[12\]: "Send me your MENU" repeats an example of the same intent/,
    );
  });

  it("checks the reply against the reply limits", () => {
    const buttons = [1, 2, 3, 4].map((n) => ({ id: `b${n}`, title: `Button ${n}` }));
    expect(problemsOf(custom("menu", MENU_EXAMPLES, { text: "Menu", buttons }))).toMatch(
      /router\.custom\.0\.reply\.buttons/,
    );
    expect(problemsOf(custom("menu", MENU_EXAMPLES, { text: "" }))).toMatch(/router\.custom\.0\.reply\.text/);
  });

  it("adds the reply to the tenant's replies and lets rules and reply ids name the custom intent", () => {
    const settings = resolveResponderSettings(restaurant());
    expect(settings.replies.menu).toEqual(MENU_REPLY);
    expect(settings.customIntents).toEqual([{ intent: "menu", examples: MENU_EXAMPLES }]);
    expect(routeTurn(settings, [message("", { replyId: "btn_menu", text: undefined })]).intent).toBe("menu");
    expect(problemsOf({ router: { enabledIntents: ["menu"] } })).toMatch(/unknown intent "menu"/);
  });
});

describe("a restaurant's menu intent", () => {
  let router: IntentRouter;
  let lexicon: Lexicon;
  let test: readonly LabelledExample[];
  let negatives: CustomNegatives;
  let settings: ResponderSettings;

  beforeAll(() => {
    router = loadIntentRouter();
    lexicon = loadLexicon();
    // Trained on the corpus's train and validation splits; its test split is kept for the negatives below.
    const corpus = loadCorpus(dataPath("router"));
    const splits = splitCorpus(corpus.examples);
    test = splits.test;
    negatives = customNegativesFrom([...splits.train, ...splits.validation], lexicon, corpus.sha256);
    const { model } = trainTenantCustomIntents(
      "mama-put",
      resolveResponderSettings(restaurant()).customIntents,
      {
        router,
        lexicon,
        negatives: () => negatives,
      },
    );
    settings = {
      ...resolveResponderSettings(restaurant()),
      tiers: { custom: { classifier: createCustomIntentClassifier(model), lexicon } },
    };
  }, 120_000);

  const answered = (text: string) => routeTurn(settings, [message(text)], router);

  it("answers menu questions it was not trained on, with the tenant's reply", () => {
    const hits = HELD_OUT_MENU.filter((text) => answered(text).intent === "menu");
    // Measured 9 of 20 (bench/router/custom-intents.ts); precision first, so recall is modest.
    expect(hits.length).toBeGreaterThanOrEqual(6);
    const routed = answered("wetin dey menu tonight");
    expect(routed).toMatchObject({ intent: "menu", tier: "custom", reply: MENU_REPLY });
  });

  it("never answers routine banking, needs-agent messages or chatter with the menu", () => {
    for (const text of [...HELD_OUT_BANKING, ...HELD_OUT_NOT_MENU])
      expect([text, answered(text).intent]).not.toEqual([text, "menu"]);
    expect(answered("my transfer never enter").intent).not.toBe("menu");
  });

  it("does not take the corpus's test split for the menu, except the product questions it overlaps", () => {
    const overlapped = new Set(Object.values(settings.tiers?.custom?.classifier.model.overlaps ?? {}).flat());
    expect([...overlapped]).toEqual(["product_inquiry"]);
    const wrong = test.filter(
      (example) => !overlapped.has(example.label) && answered(example.text).intent === "menu",
    );
    expect(wrong.map((example) => example.text)).toEqual([]);
  });

  it("yields to the base classifier when it puts needs_agent first or resolves an intent the menu does not overlap", () => {
    const tier = settings.tiers?.custom;
    if (tier === undefined) throw new Error("no custom tier");
    const text = "abeg send me your menu";
    const base = router.classify(text);
    expect(customIntentTier(settings, tier, text, base)?.intent).toBe("menu");
    expect(customIntentTier(settings, tier, text, { ...base, needsAgentFirst: true })).toBeUndefined();
    const transfer = { ...base, intent: "failed_transaction" as const, resolved: true };
    expect(customIntentTier(settings, tier, text, transfer)).toBeUndefined();
    const product = { ...base, intent: "product_inquiry" as const, resolved: true };
    expect(customIntentTier(settings, tier, text, product)).toMatchObject({ intent: "menu", tier: "custom" });
  });

  it("holds back what the abstain layer holds back: two requests in one message go to the agent", () => {
    const tier = settings.tiers?.custom;
    if (tier === undefined) throw new Error("no custom tier");
    const text = "wetin una get for menu? and also do you deliver";
    // The menu classifier alone would answer it.
    expect(tier.classifier.score(normalizeMessage(text, tier.lexicon))).toMatchObject({
      intent: "menu",
      confident: true,
    });
    expect(customIntentTier(settings, tier, text, undefined)).toBeUndefined();
  });

  it("trains the same model from the same examples", () => {
    const again = trainTenantCustomIntents("mama-put", settings.customIntents, {
      router,
      lexicon,
      negatives: () => negatives,
    });
    expect(again.model).toEqual(settings.tiers?.custom?.classifier.model);
  }, 60_000);
});

describe("sharpsharp router train --tenant", () => {
  it("writes a file the worker loads while the examples are unchanged, and retrains when one changes", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ss-custom-"));
    const stdout = new PassThrough();
    const code = await runRouterCommand(["train", "--tenant", "mama-put"], {
      stdin: new PassThrough(),
      stdout,
      stderr: new PassThrough(),
      tenantIntents: () => undefined,
      tenantCustomIntents: (id) =>
        id === "mama-put"
          ? { definitions: resolveResponderSettings(restaurant()).customIntents, dataDir }
          : undefined,
    });
    expect(code).toBe(0);
    const path = customIntentsFile(dataDir, "mama-put");
    expect(String(stdout.read())).toContain(path);
    const written = JSON.parse(readFileSync(path, "utf8")) as { hash: string };

    const logs: { message: string; fields: Record<string, unknown> }[] = [];
    const context = {
      router: loadIntentRouter(),
      lexicon: loadLexicon(),
      dataDir,
      log: (message: string, fields: Readonly<Record<string, unknown>>) => logs.push({ message, fields }),
    };
    const loaded = loadOrTrainCustomIntents(
      "mama-put",
      resolveResponderSettings(restaurant()).customIntents,
      context,
    );
    expect(loaded.hash).toBe(written.hash);
    expect(logs).toEqual([{ message: "custom intents loaded", fields: { tenant: "mama-put", path } }]);

    const changed = [...MENU_EXAMPLES.slice(1), "abeg wetin una get for chop"];
    const settings = withTenantTiers("mama-put", resolveResponderSettings(restaurant(changed)), context);
    expect(settings.tiers?.custom?.classifier.model.hash).not.toBe(written.hash);
    expect(logs[1]?.message).toBe("custom intents trained at start");
    expect(String(logs[1]?.fields.reason)).toMatch(/trained on other examples/);
  }, 120_000);

  it("says so for a tenant without custom intents", async () => {
    const stderr = new PassThrough();
    const code = await runRouterCommand(["train", "--tenant", "bank"], {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr,
      tenantIntents: () => undefined,
      tenantCustomIntents: () => ({ definitions: [], dataDir: tmpdir() }),
    });
    expect(code).toBe(2);
    expect(String(stderr.read())).toMatch(/tenant "bank" has no custom intents/);
  });
});
