import type { ChatMessage, ResponseFormat } from "./chat-request.js";
import { isObject, type JsonObject } from "./json-object.js";
import { InvalidRequest } from "./openai-error.js";

const SCHEMA_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Where in the schema, as OpenAI's errors write it: `('properties', 'amount')`. */
function context(path: readonly string[]): string {
  return `(${path.map((key) => `'${key}'`).join(", ")})`;
}

function typesOf(schema: JsonObject): string[] {
  const type = schema.type;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === "string") : [];
}

/**
 * The first rule of strict structured outputs a schema breaks, or undefined:
 * every object sets `additionalProperties: false` and lists each of its
 * properties in `required`; nested schemas (properties, items, anyOf, $defs)
 * are checked the same way.
 */
function strictProblem(schema: unknown, path: readonly string[]): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typesOf(schema).includes("object") || isObject(schema.properties)) {
    if (schema.additionalProperties !== false) {
      return `In context=${context(path)}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const properties = isObject(schema.properties) ? Object.keys(schema.properties) : [];
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = properties.find((key) => !required.includes(key));
    if (missing !== undefined) {
      return (
        `In context=${context(path)}, 'required' is required to be supplied and to be an array including every ` +
        `key in properties. Missing '${missing}'.`
      );
    }
  }
  const nested: [unknown, string[]][] = [];
  for (const key of ["properties", "$defs", "definitions"]) {
    const map = schema[key];
    if (isObject(map))
      for (const [name, sub] of Object.entries(map)) nested.push([sub, [...path, key, name]]);
  }
  if (schema.items !== undefined) nested.push([schema.items, [...path, "items"]]);
  if (Array.isArray(schema.anyOf)) {
    for (const [index, sub] of schema.anyOf.entries()) nested.push([sub, [...path, "anyOf", String(index)]]);
  }
  for (const [sub, at] of nested) {
    const problem = strictProblem(sub, at);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function jsonSchemaFormat(value: JsonObject): ResponseFormat {
  const spec = value.json_schema;
  if (!isObject(spec)) {
    throw new InvalidRequest(
      "Missing required parameter: 'response_format.json_schema'.",
      "response_format.json_schema",
      "missing_required_parameter",
    );
  }
  if (typeof spec.name !== "string" || !SCHEMA_NAME.test(spec.name)) {
    throw new InvalidRequest(
      "Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
      "response_format.json_schema.name",
      "invalid_value",
    );
  }
  if (spec.schema !== undefined && !isObject(spec.schema)) {
    throw new InvalidRequest(
      "Invalid type for 'response_format.json_schema.schema': expected an object.",
      "response_format.json_schema.schema",
      "invalid_type",
    );
  }
  const schema = spec.schema ?? {};
  const strict = spec.strict === true;
  if (strict) {
    const problem = typesOf(schema).includes("object")
      ? strictProblem(schema, [])
      : "In context=(), schema must be a JSON Schema of 'type: \"object\"'.";
    if (problem !== undefined) {
      throw new InvalidRequest(
        `Invalid schema for response_format '${spec.name}': ${problem}`,
        "response_format",
        "invalid_json_schema",
      );
    }
  }
  return { type: "json_schema", name: spec.name, schema, strict };
}

/**
 * `response_format`, checked as OpenAI checks it: its type; a json_schema's
 * name and, when strict, the strict rules; json_object only when a message
 * says "json" (OpenAI insists). Undefined when absent.
 */
export function validateResponseFormat(
  value: unknown,
  messages: readonly ChatMessage[],
): ResponseFormat | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) {
    throw new InvalidRequest(
      "Invalid type for 'response_format': expected an object.",
      "response_format",
      "invalid_type",
    );
  }
  switch (value.type) {
    case "text":
      return { type: "text" };
    case "json_object":
      if (!messages.some((message) => /json/i.test(message.text))) {
        throw new InvalidRequest(
          "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
          "messages",
        );
      }
      return { type: "json_object" };
    case "json_schema":
      return jsonSchemaFormat(value);
    default:
      throw new InvalidRequest(
        `Invalid value: '${String(value.type)}'. Supported values are: 'json_object', 'json_schema', and 'text'.`,
        "response_format.type",
        "invalid_value",
      );
  }
}
