import { Ajv, type ErrorObject } from "ajv";

/** A tool's `parameters`: a JSON Schema (draft-07) whose top level is `type: "object"`. */
export type ToolParameters = Readonly<Record<string, unknown>> & { readonly type: "object" };

/** The model's arguments after the check: a JSON copy holding only declared properties. */
export type ArgumentsCheck =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly problem: string };

/** One reason a `parameters` schema cannot be used; `path` starts at `parameters`. */
export interface SchemaProblem {
  readonly path: string;
  readonly message: string;
}

/** A compiled `parameters` schema, or why it cannot be used. */
export type CompiledArguments =
  | { readonly ok: true; readonly check: (args: unknown) => ArgumentsCheck }
  | { readonly ok: false; readonly problems: readonly SchemaProblem[] };

// At the top level these would make "every argument is declared under properties" unknowable,
// and forcing additionalProperties: false next to them would strip arguments they allow.
const TOP_LEVEL_UNSUPPORTED = ["$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else"] as const;
const MAX_REPORTED_ERRORS = 5;

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const describesObject = (node: SchemaNode): boolean =>
  node.type === "object" ||
  (Array.isArray(node.type) && node.type.includes("object")) ||
  isNode(node.properties);

/**
 * Sets `additionalProperties: false` on every object schema reachable through
 * `properties`, `patternProperties`, `items`, `$defs` and `definitions` (in place,
 * on a copy). ajv's `removeAdditional: "all"` strips undeclared properties
 * wherever a schema has `properties` or `additionalProperties`; this also
 * covers objects declared without `properties` (`{ type: "object" }`), so a
 * free-form object cannot carry a smuggled `phone` either. Combinator
 * branches are left as written: removing inside a failing `anyOf` branch
 * would mutate the data the next branch sees.
 */
function lockObjects(node: SchemaNode, path: string, problems: SchemaProblem[]): void {
  if (describesObject(node)) {
    if ("additionalProperties" in node && node.additionalProperties !== false) {
      problems.push({
        path: `${path}.additionalProperties`,
        message: "undeclared arguments are always removed; declare each one under properties",
      });
    }
    node.additionalProperties = false;
  }
  for (const key of ["properties", "patternProperties", "$defs", "definitions"]) {
    const children = node[key];
    if (!isNode(children)) continue;
    for (const [name, child] of Object.entries(children)) {
      if (isNode(child)) lockObjects(child, `${path}.${key}.${name}`, problems);
    }
  }
  const items = node.items;
  if (isNode(items)) lockObjects(items, `${path}.items`, problems);
  if (Array.isArray(items)) {
    items.forEach((item, index) => {
      if (isNode(item)) lockObjects(item, `${path}.items.${index}`, problems);
    });
  }
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const described = (errors ?? []).slice(0, MAX_REPORTED_ERRORS).map((error) => {
    const where = error.instancePath.slice(1).replaceAll("/", ".");
    return where === "" ? (error.message ?? "is invalid") : `${where} ${error.message ?? "is invalid"}`;
  });
  const more = (errors?.length ?? 0) - described.length;
  return `${described.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}`;
}

/**
 * Compiles a tool's `parameters` into a check of the model's arguments. The
 * check works on a JSON copy of the arguments (the caller's value is never
 * changed), removes every property the schema does not declare, and then
 * validates. Formats (`format: email`) are not checked; unknown keywords are
 * ignored, so schemas written for an LLM provider compile as they are.
 */
export function compileToolArguments(parameters: ToolParameters): CompiledArguments {
  const problems: SchemaProblem[] = [];
  for (const keyword of TOP_LEVEL_UNSUPPORTED) {
    if (keyword in parameters) {
      problems.push({
        path: `parameters.${keyword}`,
        message: "not supported at the top level; list every argument under properties",
      });
    }
  }
  const locked = structuredClone(parameters) as SchemaNode;
  lockObjects(locked, "parameters", problems);
  if (problems.length > 0) return { ok: false, problems };

  // One Ajv per schema: two tenants' schemas with the same $id must not collide.
  const ajv = new Ajv({
    strict: false,
    logger: false,
    allErrors: true,
    removeAdditional: "all",
    validateFormats: false,
  });
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(locked);
  } catch (error) {
    const message = `not a usable JSON schema (${(error as Error).message})`;
    return { ok: false, problems: [{ path: "parameters", message }] };
  }

  return {
    ok: true,
    check(args) {
      let copy: unknown;
      try {
        // A JSON round trip: the model's arguments are JSON, and ajv removes properties in place.
        copy = args === undefined ? {} : JSON.parse(JSON.stringify(args));
      } catch {
        return { ok: false, problem: "the arguments are not JSON" };
      }
      if (!validate(copy)) return { ok: false, problem: describeErrors(validate.errors) };
      return { ok: true, args: copy as Record<string, unknown> };
    },
  };
}
