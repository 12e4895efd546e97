import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { IntentRouter } from "../intent-router.js";
import type { Lexicon } from "../lexicon.js";
import type { CustomIntentDefinition } from "./custom-intent-definitions.js";
import { type CustomIntentModel, customIntentsHash } from "./custom-intent-model.js";
import { type CustomNegatives, loadCustomNegatives } from "./custom-negatives.js";
import { trainCustomIntents } from "./train-custom-intents.js";

const FORMAT = "sharpsharp-custom-intents/1";

/** Where `router train --tenant` writes a tenant's classifier, under the data directory. */
export function customIntentsFile(dataDir: string, tenantId: string): string {
  return join(dataDir, "router-custom", `${encodeURIComponent(tenantId)}.json`);
}

/** Written like the data directory's other files: folder 0700, file 0600 (the examples are the tenant's). */
export function writeCustomIntentsFile(path: string, model: CustomIntentModel): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify({ format: FORMAT, ...model })}\n`, { mode: 0o600 });
}

/** The file's model, or why it cannot be used. */
export function readCustomIntentsFile(path: string): CustomIntentModel | { readonly problem: string } {
  if (!existsSync(path)) return { problem: `no trained file at ${path}` };
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as CustomIntentModel & { format?: string };
    if (parsed.format !== FORMAT) return { problem: `${path} is not a ${FORMAT} file` };
    const { format: _format, ...model } = parsed;
    return model;
  } catch (error) {
    return { problem: `${path} is unreadable (${(error as Error).message})` };
  }
}

export interface CustomIntentsContext {
  readonly router: IntentRouter;
  readonly lexicon: Lexicon;
  /** The negatives (default: the router's corpus, loaded once per process). */
  readonly negatives?: () => CustomNegatives;
  /** Holds trained files (`router-custom/<tenant>.json`); none: always train. */
  readonly dataDir?: string;
  readonly log?: (message: string, fields: Readonly<Record<string, unknown>>) => void;
}

/** The hash a tenant's trained file must record to be used. */
export function hashFor(
  definitions: readonly CustomIntentDefinition[],
  context: CustomIntentsContext,
): string {
  return customIntentsHash(definitions, {
    lexiconSha256: context.lexicon.sha256,
    // The shipped model records the corpus it was trained on: the same corpus is the negatives.
    negativesSha256: context.router.model.provenance.corpusSha256,
  });
}

/** Trains a tenant's classifier now, and says how long it took. */
export function trainTenantCustomIntents(
  tenantId: string,
  definitions: readonly CustomIntentDefinition[],
  context: CustomIntentsContext,
): { readonly model: CustomIntentModel; readonly ms: number } {
  const negatives = (context.negatives ?? (() => loadCustomNegatives(context.lexicon)))();
  const started = performance.now();
  const model = trainCustomIntents({
    tenant: tenantId,
    hash: hashFor(definitions, context),
    definitions,
    negatives: negatives.examples,
    lexicon: context.lexicon,
    router: context.router,
  });
  return { model, ms: performance.now() - started };
}

/**
 * A tenant's custom-intent model at start: the trained file when its hash
 * matches the tenant's examples (and lexicon, corpus, trainer), else trained
 * now, with the reason logged.
 */
export function loadOrTrainCustomIntents(
  tenantId: string,
  definitions: readonly CustomIntentDefinition[],
  context: CustomIntentsContext,
): CustomIntentModel {
  const hash = hashFor(definitions, context);
  let reason = "no data directory";
  if (context.dataDir !== undefined) {
    const path = customIntentsFile(context.dataDir, tenantId);
    const read = readCustomIntentsFile(path);
    if ("problem" in read) reason = read.problem;
    else if (read.hash !== hash)
      reason = `${path} was trained on other examples (or another lexicon, corpus or trainer)`;
    else {
      context.log?.("custom intents loaded", { tenant: tenantId, path });
      return read;
    }
  }
  const { model, ms } = trainTenantCustomIntents(tenantId, definitions, context);
  context.log?.("custom intents trained at start", {
    tenant: tenantId,
    reason,
    ms: Math.round(ms),
    thresholds: model.thresholds,
    calibration: model.calibration,
  });
  return model;
}
