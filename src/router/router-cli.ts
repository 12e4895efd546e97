import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import type { CustomIntentDefinition } from "./custom/custom-intent-definitions.js";
import {
  customIntentsFile,
  trainTenantCustomIntents,
  writeCustomIntentsFile,
} from "./custom/custom-intent-store.js";
import { crossValidateInjongo, INJONGO_CV_FOLDS, loadInjongoLabelMap } from "./eval/cross-validate.js";
import { loadEvalFile } from "./eval/eval-sets.js";
import { type EvalOutcome, evaluateRouter } from "./eval/evaluate.js";
import { formatReport } from "./eval/format-report.js";
import { keywordIntent } from "./eval/keyword-router.js";
import { formatRouterReport, routerReportSets, scoreReportSets } from "./eval/router-report.js";
import { createIntentRouter, DEFAULT_MODEL_PATH, type IntentRouter } from "./intent-router.js";
import { evalLanguageCommand, languageSampleCommand, trainLanguageFiles } from "./language/language-cli.js";
import { loadLexicon } from "./lexicon.js";
import { deserializeModel, serializeModel } from "./model.js";
import { dataPath } from "./package-files.js";
import { loadCorpus } from "./train/corpus.js";
import { loadInjongo } from "./train/injongo.js";
import { DEFAULT_TRAIN_OPTIONS } from "./train/train.js";
import { SYNTHETIC_MULTI_REQUESTS, trainRouter } from "./train/train-pipeline.js";
import { deriveUdLexicon } from "./train/ud-lexicon.js";

export const ROUTER_USAGE = `Usage: sharpsharp router <command>

Commands:
  train      Train the classifier from data/router into data/router/model.bin
             (--data DIR, --out FILE) and the language identifier into
             language.bin beside it (--language-out FILE; --language-only
             trains just that). Same data, same models, byte for byte.
             --tenant ID: train that tenant's custom intents (router.custom) into
             <data dir>/router-custom/<ID>.json (--out FILE), which the worker
             loads at start while the tenant's examples are unchanged.
  classify   Read JSON lines {"id","text"} on stdin, write one line per input:
             {"id","intent","confidence","resolved","slots"} (--model FILE,
             --tenant ID: only that tenant's enabled intents resolve).
  eval       Score the router: our test split by default, or the files given
             (.jsonl with "intent"; INJONGO .tsv with label_map.tsv beside it;
             AfriSenti .tsv). --baseline keyword scores the keyword list instead,
             --json prints the report as JSON. --cv injongo: grouped 5-fold
             cross-validation of the whole recipe on the INJONGO training half
             (trains five times; a few minutes).
  eval-language
             The language identifier's confusion matrix and per-language
             accuracy beside the old lexicon-hit guess: our test split by
             default, or the files given (AfriSenti {pcm,hau,ibo,yor}_dev.tsv,
             INJONGO {hau,ibo,yor}.tsv: its held-out fifth; .jsonl with "lang").
  language-sample
             Redraw data/router/language/*.tsv from the public sets
             (--from DIR holding afrisenti-pcm, afrisenti-hau-ibo-yor, injongo-intent).
  lexicon    Derive data/lexicon/pidgin-ud.tsv from the Naija UD gloss list
             (--from pcm_gloss_lexicon.tsv, --out FILE).`;

/** Enabled intents for `--tenant`, supplied by the caller (the CLI reads the tenants config). */
export type TenantIntentsLookup = (tenantId: string) => ReadonlySet<string> | undefined;

/** A tenant's custom intents and the data directory, for `train --tenant` (the CLI reads the tenants config). */
export type TenantCustomIntentsLookup = (
  tenantId: string,
) => { readonly definitions: readonly CustomIntentDefinition[]; readonly dataDir: string } | undefined;

interface RouterCliIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly tenantIntents: TenantIntentsLookup;
  readonly tenantCustomIntents?: TenantCustomIntentsLookup;
}

class UsageError extends Error {
  override readonly name = "UsageError";
}

function train(args: string[], io: RouterCliIo): number {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: "string" },
      out: { type: "string" },
      "language-out": { type: "string" },
      "language-only": { type: "boolean" },
      tenant: { type: "string" },
    },
  });
  if (values.tenant !== undefined) return trainTenant(values.tenant, values.out, io);
  const started = performance.now();
  const dataDir = values.data ?? dataPath("router");
  const languageOut =
    values["language-out"] ??
    (values.out === undefined ? undefined : join(dirname(values.out), "language.bin"));
  io.stdout.write(`${trainLanguageFiles(dataDir, languageOut)}\n`);
  if (values["language-only"] === true) return 0;
  const out = values.out ?? DEFAULT_MODEL_PATH();
  const corpus = loadCorpus(dataDir);
  const lexicon = loadLexicon();
  const { model, trainedOn, heldOutTest } = trainRouter(corpus, lexicon, DEFAULT_TRAIN_OPTIONS, (line) =>
    io.stderr.write(`${line}\n`),
  );
  const bytes = serializeModel(model);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  io.stdout.write(
    [
      `trained on ${trainedOn} messages + ${SYNTHETIC_MULTI_REQUESTS} synthetic multi-request; ${heldOutTest} held out for the test split; ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
      `features ${model.features.length}, temperature ${model.temperature}, model ${(bytes.length / 1024 / 1024).toFixed(2)} MB -> ${out}`,
      `thresholds: ${Object.entries(model.thresholds)
        .map(([intent, threshold]) => `${intent} ${threshold.toFixed(3)}`)
        .join(", ")}`,
      `Yoruba, Hausa and Igbo thresholds: ${
        Object.entries(model.nativeThresholds ?? {})
          .map(([intent, threshold]) => `${intent} ${threshold.toFixed(3)}`)
          .join(", ") || "none"
      }`,
      "",
    ].join("\n"),
  );
  return 0;
}

function trainTenant(tenantId: string, out: string | undefined, io: RouterCliIo): number {
  const found = io.tenantCustomIntents?.(tenantId);
  if (found === undefined) throw new UsageError(`no tenant "${tenantId}" in the configuration`);
  if (found.definitions.length === 0)
    throw new UsageError(`tenant "${tenantId}" has no custom intents (router.custom)`);
  const path = out ?? customIntentsFile(found.dataDir, tenantId);
  const { model, ms } = trainTenantCustomIntents(tenantId, found.definitions, {
    router: loadRouter(undefined),
    lexicon: loadLexicon(),
  });
  writeCustomIntentsFile(path, model);
  io.stdout.write(
    `${model.classes.length - 1} custom intents trained in ${Math.round(ms)} ms -> ${path}\n` +
      `thresholds: ${JSON.stringify(model.thresholds)}; cross-validated recall: ${Object.entries(
        model.calibration,
      )
        .map(([intent, figures]) => `${intent} ${figures.recall}`)
        .join(", ")}; overlaps: ${JSON.stringify(model.overlaps)}\n`,
  );
  return 0;
}

function loadRouter(modelPath: string | undefined): IntentRouter {
  const path = modelPath ?? DEFAULT_MODEL_PATH();
  return createIntentRouter(deserializeModel(readFileSync(path)), loadLexicon());
}

async function classify(args: string[], io: RouterCliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { model: { type: "string" }, tenant: { type: "string" } } });
  let enabled: ReadonlySet<string> | undefined;
  if (values.tenant !== undefined) {
    enabled = io.tenantIntents(values.tenant);
    if (enabled === undefined) throw new UsageError(`no tenant "${values.tenant}" in the configuration`);
  }
  const router = loadRouter(values.model);
  let failures = 0;
  const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === "") continue;
    let input: { id?: unknown; text?: unknown };
    try {
      input = JSON.parse(line) as typeof input;
    } catch {
      input = {};
    }
    if (typeof input !== "object" || input === null || typeof input.text !== "string") {
      failures += 1;
      io.stderr.write(`line ${lineNumber}: expected {"id": "...", "text": "..."}\n`);
      io.stdout.write(
        `${JSON.stringify({ id: input?.id ?? null, error: "expected a JSON object with a text string" })}\n`,
      );
      continue;
    }
    const decision = router.classify(input.text, enabled);
    io.stdout.write(
      `${JSON.stringify({
        id: input.id ?? null,
        intent: decision.intent,
        confidence: Math.round(decision.confidence * 1e4) / 1e4,
        resolved: decision.resolved,
        ...(decision.abstained === undefined ? {} : { abstained: decision.abstained }),
        slots: decision.slots,
      })}\n`,
    );
  }
  return failures === 0 ? 0 : 1;
}

function evaluate(args: string[], io: RouterCliIo): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      model: { type: "string" },
      baseline: { type: "string" },
      json: { type: "boolean" },
      cv: { type: "string" },
      shared: { type: "string" },
      quick: { type: "boolean" },
    },
  });
  if (values.cv !== undefined) return crossValidate(values.cv, values.json === true, io);
  if (values.baseline !== undefined && values.baseline !== "keyword")
    throw new UsageError(`unknown baseline "${values.baseline}" (only "keyword")`);
  const classifyOne =
    values.baseline === "keyword"
      ? (text: string) => {
          const intent = keywordIntent(text);
          return { intent: intent ?? "out_of_scope", resolved: intent !== undefined };
        }
      : (() => {
          const router = loadRouter(values.model);
          return (text: string) => router.classify(text);
        })();
  if (positionals.length === 0)
    return report(classifyOne, {
      shared: values.shared ?? process.env.SHARPSHARP_SHARED_DATA,
      crossValidate: values.quick !== true && values.baseline === undefined && values.model === undefined,
      json: values.json === true,
      io,
    });
  const sets = positionals.map((path) => ({ title: path, examples: loadEvalFile(path) }));
  const reports = sets.map(({ title, examples }) => ({
    title,
    report: evaluateRouter(examples, classifyOne),
  }));
  if (values.json === true) io.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  else {
    const name =
      values.baseline === "keyword" ? "keyword list" : `classifier (${values.model ?? DEFAULT_MODEL_PATH()})`;
    for (const { title, report } of reports)
      io.stdout.write(`${formatReport(`${title}: ${name}`, report)}\n\n`);
  }
  return 0;
}

/**
 * The one report (`router eval` with no files): every set of
 * routerReportSets, then the INJONGO training half by grouped
 * cross-validation unless `crossValidate` is off (it trains five times).
 */
function report(
  classifyOne: (text: string) => EvalOutcome,
  options: { shared: string | undefined; crossValidate: boolean; json: boolean; io: RouterCliIo },
): number {
  const { io } = options;
  const dataDir = dataPath("router");
  const corpus = loadCorpus(dataDir);
  const shared = options.shared === "" ? undefined : options.shared;
  const rows = scoreReportSets(routerReportSets(corpus, dataDir, shared), classifyOne);
  if (options.crossValidate) {
    io.stderr.write("INJONGO training half: grouped 5-fold cross-validation (trains five times)...\n");
    const { report: cv } = crossValidateInjongo(
      corpus,
      loadInjongo(dataDir).rows,
      loadInjongoLabelMap(dataDir),
      loadLexicon(),
      { progress: (line) => io.stderr.write(`${line}\n`) },
    );
    rows.push({
      set: {
        name: `INJONGO training half, ${INJONGO_CV_FOLDS}-fold grouped cross-validation`,
        examples: [],
        origin: "real",
      },
      report: cv,
    });
  }
  if (options.json)
    io.stdout.write(
      `${JSON.stringify(
        rows.map(({ set, report }) => ({ set: set.name, origin: set.origin, report })),
        null,
        2,
      )}\n`,
    );
  else {
    const skipped = [
      ...(shared === undefined ? ["AfriSenti dev tweets (--shared DIR or SHARPSHARP_SHARED_DATA)"] : []),
      ...(options.crossValidate ? [] : ["INJONGO cross-validation (--quick, --model or --baseline)"]),
    ];
    io.stdout.write(
      `${formatRouterReport(rows)}\n${skipped.length === 0 ? "" : `\nnot in this report: ${skipped.join("; ")}\n`}`,
    );
  }
  return 0;
}

function crossValidate(set: string, json: boolean, io: RouterCliIo): number {
  if (set !== "injongo") throw new UsageError(`unknown cross-validation set "${set}" (only "injongo")`);
  const dataDir = dataPath("router");
  const { report, perFold } = crossValidateInjongo(
    loadCorpus(dataDir),
    loadInjongo(dataDir).rows,
    loadInjongoLabelMap(dataDir),
    loadLexicon(),
    { progress: (line) => io.stderr.write(`${line}\n`) },
  );
  if (json) io.stdout.write(`${JSON.stringify({ report, perFold }, null, 2)}\n`);
  else
    io.stdout.write(
      `${formatReport(`INJONGO training half, ${INJONGO_CV_FOLDS}-fold cross-validation grouped by near-duplicate template`, report)}\n\n`,
    );
  return 0;
}

function lexicon(args: string[], io: RouterCliIo): number {
  const { values } = parseArgs({ args, options: { from: { type: "string" }, out: { type: "string" } } });
  if (values.from === undefined) throw new UsageError("--from <pcm_gloss_lexicon.tsv> is required");
  const out = values.out ?? dataPath("lexicon", "pidgin-ud.tsv");
  const text = deriveUdLexicon(readFileSync(values.from, "utf8"));
  writeFileSync(out, text);
  io.stdout.write(
    `${text.split("\n").filter((line) => line !== "" && !line.startsWith("#")).length} entries -> ${out} (${statSync(out).size} bytes)\n`,
  );
  return 0;
}

/** Runs `sharpsharp router <command>`; returns the exit code. Bad input is reported on stderr with code 2. */
export async function runRouterCommand(args: readonly string[], io: RouterCliIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case "train":
        return train(rest, io);
      case "classify":
        return await classify(rest, io);
      case "eval":
        return evaluate(rest, io);
      case "eval-language":
        return evalLanguageCommand(rest, io);
      case "language-sample":
        return languageSampleCommand(rest, io);
      case "lexicon":
        return lexicon(rest, io);
      case undefined:
      case "help":
      case "--help":
        io.stdout.write(`${ROUTER_USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown router command "${command}"\n\n${ROUTER_USAGE}`);
    }
  } catch (error) {
    if (error instanceof Error && (error.name !== "Error" || error instanceof TypeError)) {
      io.stderr.write(`sharpsharp router ${command}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
