import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Payloads from other projects' test suites, kept outside this repository
 * (several are AGPL): only read from the folder SHARPSHARP_REAL_WORLD_FIXTURES
 * names, never copied in. Its SOURCES.md names each file's origin and the HTTP
 * status its source recorded.
 */
export const REAL_WORLD_ENV = "SHARPSHARP_REAL_WORLD_FIXTURES";
const GRAPH_FOLDER = "graph-responses";

export interface RealWorldFolder {
  /** Absent: the tests are skipped, and `skipReason` says why. */
  readonly root: string | undefined;
  readonly skipReason: string;
}

export function realWorldFolder(): RealWorldFolder {
  const root = process.env[REAL_WORLD_ENV];
  if (root === undefined || root === "") {
    return { root: undefined, skipReason: `skipped: ${REAL_WORLD_ENV} is not set` };
  }
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    return { root: undefined, skipReason: `skipped: ${REAL_WORLD_ENV} names ${root}, which is not a folder` };
  }
  return { root, skipReason: "" };
}

export interface FixtureFile {
  /** Path inside the folder, e.g. `pywa/inbound-text.json`. */
  readonly name: string;
  readonly bytes: Buffer;
}

function filesUnder(root: string, dir: string): FixtureFile[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return filesUnder(root, path);
      return [{ name: relative(root, path), bytes: readFileSync(path) }];
    });
}

/** Every webhook body: each `.json` in a subfolder other than the Graph responses'. */
export function webhookFiles(root: string): FixtureFile[] {
  return readdirSync(root)
    .sort()
    .filter((entry) => entry !== GRAPH_FOLDER && statSync(join(root, entry)).isDirectory())
    .flatMap((entry) => filesUnder(root, join(root, entry)))
    .filter((file) => file.name.endsWith(".json"));
}

/** Every Graph API response body (JSON or not). */
export function graphResponseFiles(root: string): FixtureFile[] {
  const dir = join(root, GRAPH_FOLDER);
  return existsSync(dir) ? filesUnder(root, dir) : [];
}

/**
 * The HTTP status SOURCES.md gives a file (its HTTP column), when it gives a
 * number: `-` marks a webhook body or an error object without its envelope.
 */
export function recordedStatuses(root: string): ReadonlyMap<string, number> {
  const sources = join(root, "SOURCES.md");
  const statuses = new Map<string, number>();
  if (!existsSync(sources)) return statuses;
  for (const line of readFileSync(sources, "utf8").split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const file = /^`([^`]+)`$/.exec(cells[1] ?? "")?.[1];
    const status = cells.find((cell) => /^[1-5]\d\d$/.test(cell));
    if (file !== undefined && status !== undefined) statuses.set(file, Number(status));
  }
  return statuses;
}
