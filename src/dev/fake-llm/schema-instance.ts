import { isObject, type JsonObject } from "./json-object.js";

/** What the fake writes into a string no rule scripted. */
export const FAKE_STRING = "(fake LLM)";

function resolve(schema: JsonObject, root: JsonObject): JsonObject {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return schema;
  let at: unknown = root;
  for (const key of ref.slice(2).split("/")) at = isObject(at) ? at[key] : undefined;
  return isObject(at) ? at : {};
}

/**
 * The plainest value a schema accepts: null where null is allowed, the first
 * enum or const value, false, 0, "(fake LLM)", [] and objects with every
 * property filled the same way. What the fake answers a json_schema request
 * no rule scripts, so the caller's parsing always gets a valid object.
 */
export function schemaInstance(schema: unknown, root: JsonObject = isObject(schema) ? schema : {}): unknown {
  if (!isObject(schema)) return null;
  const resolved = resolve(schema, root);
  if ("const" in resolved) return resolved.const;
  if (Array.isArray(resolved.enum)) return resolved.enum[0] ?? null;
  if (Array.isArray(resolved.anyOf)) {
    const branches = resolved.anyOf.filter(isObject);
    const nullable = branches.find((branch) => branch.type === "null");
    return schemaInstance(nullable ?? branches[0], root);
  }
  const types =
    typeof resolved.type === "string" ? [resolved.type] : Array.isArray(resolved.type) ? resolved.type : [];
  const type = types.includes("null")
    ? "null"
    : (types[0] ?? (isObject(resolved.properties) ? "object" : "null"));
  switch (type) {
    case "object": {
      const properties = isObject(resolved.properties) ? resolved.properties : {};
      return Object.fromEntries(
        Object.entries(properties).map(([key, sub]) => [key, schemaInstance(sub, root)]),
      );
    }
    case "array":
      return [];
    case "string":
      return FAKE_STRING;
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}
