import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { parse as parseYaml } from "yaml";

const DEFAULT_FILE_NAMES = ["sharpsharp.config.json", "sharpsharp.config.yaml", "sharpsharp.config.yml"];

export interface TenantsFileSource {
  readonly path: string;
  readonly content: unknown;
}

/** The first default tenants file present in `cwd` (sharpsharp.config.json, .yaml, .yml), if any. */
export function findDefaultTenantsFile(cwd: string): string | undefined {
  return DEFAULT_FILE_NAMES.map((name) => resolve(cwd, name)).find((candidate) => existsSync(candidate));
}

/**
 * Finds and parses the tenants file: `SHARPSHARP_CONFIG` if given (it must
 * exist), else the first default file name present in `cwd`. Problems are
 * pushed onto `problems` rather than thrown so they are reported together.
 */
export function readTenantsFile(
  explicitPath: string | undefined,
  cwd: string,
  problems: string[],
): TenantsFileSource | undefined {
  let path: string | undefined;
  if (explicitPath !== undefined) {
    path = isAbsolute(explicitPath) ? explicitPath : resolve(cwd, explicitPath);
    if (!existsSync(path)) {
      problems.push(`SHARPSHARP_CONFIG: the file ${path} does not exist`);
      return undefined;
    }
  } else {
    path = findDefaultTenantsFile(cwd);
    if (path === undefined) return undefined;
  }
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    problems.push(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    return undefined;
  }
  try {
    const content: unknown = path.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
    return { path, content };
  } catch (error) {
    problems.push(
      `${path}: is not valid ${path.endsWith(".json") ? "JSON" : "YAML"}: ${(error as Error).message}`,
    );
    return undefined;
  }
}
