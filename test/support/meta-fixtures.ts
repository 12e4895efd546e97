import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const sharedDir = resolve(here, "../../../shared/fixtures/meta");
const bundledDir = resolve(here, "../fixtures/meta");

/** Meta payload fixtures: the shared set beside the repo when present (it may have grown), else the copy in test/. */
export const metaFixturesDir = existsSync(sharedDir) ? sharedDir : bundledDir;

export function fixtureNames(prefix: string): string[] {
  return readdirSync(metaFixturesDir)
    .filter((name) => name.startsWith(prefix) && name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .sort();
}

/** The fixture's exact bytes (pretty-printed, with Meta's \uXXXX escapes). */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(join(metaFixturesDir, `${name}.json`));
}

export function fixtureJson<T = unknown>(name: string): T {
  return JSON.parse(fixtureBytes(name).toString("utf8")) as T;
}

/** Every webhook-shaped fixture (inbound messages, statuses, value.errors). */
export function webhookFixtureNames(): string[] {
  return [...fixtureNames("inbound-"), ...fixtureNames("status-"), ...fixtureNames("webhook-")];
}
