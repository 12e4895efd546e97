import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** Meta payload fixtures of the project's own: invented ids and numbers in the shapes Meta sends (see its README). */
export const metaFixturesDir = resolve(here, "../fixtures/meta");

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
