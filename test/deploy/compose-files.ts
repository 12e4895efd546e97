import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { parse } from "yaml";

/** The fields of a Compose service the deploy tests read (after the schema has validated the file). */
export interface ComposeService {
  readonly image?: string;
  readonly build?: { readonly context?: string } | string;
  readonly command?: readonly string[] | string;
  readonly environment?: Readonly<Record<string, string | number | boolean | null>> | readonly string[];
  readonly env_file?: readonly ({ readonly path: string; readonly required?: boolean } | string)[];
  readonly ports?: readonly (string | { readonly published?: string | number; readonly host_ip?: string })[];
  readonly volumes?: readonly (string | { readonly source?: string; readonly target: string })[];
  readonly depends_on?: Readonly<Record<string, { readonly condition: string }>> | readonly string[];
  readonly healthcheck?: { readonly test?: readonly string[] | string; readonly disable?: boolean };
  readonly deploy?: { readonly replicas?: number | string };
  readonly stop_grace_period?: string;
}

export interface ComposeFile {
  readonly name?: string;
  readonly services: Readonly<Record<string, ComposeService>>;
  readonly volumes?: Readonly<Record<string, unknown>>;
}

/** A Compose file as Docker Compose reads it: YAML with merge keys (`<<: *anchor`). */
export function readComposeFile(path: string): ComposeFile {
  return parse(readFileSync(path, "utf8"), { merge: true }) as ComposeFile;
}

/** `NAME=value` lines (comments and blank lines skipped), as Compose reads an `.env` file. */
export function parseDotEnv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match !== null) values.set(match[1] as string, (match[2] as string).trim());
  }
  return values;
}

/** Every `${NAME…}` a Compose text interpolates (`$$` is a literal dollar, left to the container). */
export function interpolatedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.replaceAll("$$", "").matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g))
    names.add(match[1] as string);
  return names;
}

/**
 * Compose's interpolation of one value: `${NAME}`, `${NAME:-default}`, `${NAME-default}`,
 * `${NAME:?error}` (throws when unset or empty), `$$` for a dollar.
 */
export function interpolate(value: string, env: ReadonlyMap<string, string>): string {
  return value
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (_, name: string, operator, word) => {
      const set = env.get(name);
      const empty = set === undefined || (operator?.startsWith(":") === true && set === "");
      if (operator?.endsWith("?") === true && empty) throw new Error(`${name}: ${word}`);
      if (operator?.endsWith("-") === true && empty) return word as string;
      return set ?? "";
    })
    .replaceAll("$$", "$");
}

/** A service's environment as a map (Compose accepts a mapping or `NAME=value` strings). */
export function environmentOf(service: ComposeService): Map<string, string> {
  const environment = new Map<string, string>();
  if (Array.isArray(service.environment)) {
    for (const entry of service.environment as readonly string[]) {
      const [name, ...value] = entry.split("=");
      environment.set(name as string, value.join("="));
    }
  } else {
    for (const [name, value] of Object.entries(service.environment ?? {}))
      environment.set(name, value === null ? "" : String(value));
  }
  return environment;
}

/**
 * The Compose Specification's JSON schema (draft-07) as the dclint package ships it, compiled by ajv:
 * offline, and updated with the package rather than copied here.
 */
export function composeSchemaValidator(): (document: unknown) => ErrorObject[] {
  const require = createRequire(import.meta.url);
  const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const schema = read(join(dirname(require.resolve("dclint/package.json")), "schemas/compose.schema.json"));
  // The schema names draft-07 by its https address, which ajv knows only as http://…/schema#: the same
  // meta-schema (ajv's copy), under the address the schema uses.
  const draft07 = read(join(dirname(require.resolve("ajv")), "refs/json-schema-draft-07.json"));
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addMetaSchema({ ...draft07, $id: String(schema.$schema) });
  const validate = ajv.compile(schema);
  return (document) => (validate(document) ? [] : [...(validate.errors ?? [])]);
}
