/** A JSON object, as the validators see it. */
export type JsonObject = Record<string, unknown>;

/** Thrown by the checks below; validateSend turns it into Meta's error 100. */
export class InvalidParameter extends Error {}

/** Length in characters as a person counts them (an emoji is one). */
export function charLength(value: string): number {
  return [...value].length;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function requireObject(parent: JsonObject, key: string, path: string): JsonObject {
  const value = parent[key];
  if (!isObject(value)) throw new InvalidParameter(`Param ${path} is required and must be an object`);
  return value;
}

export function requireArray(parent: JsonObject, key: string, path: string): unknown[] {
  const value = parent[key];
  if (!Array.isArray(value)) throw new InvalidParameter(`Param ${path} is required and must be an array`);
  return value;
}

/** A non-empty string of at most `max` characters. */
export function requireString(parent: JsonObject, key: string, path: string, max?: number): string {
  const value = parent[key];
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidParameter(`Param ${path} is required`);
  }
  checkLength(value, path, max);
  return value;
}

export function optionalString(parent: JsonObject, key: string, path: string, max?: number): void {
  const value = parent[key];
  if (value === undefined) return;
  if (typeof value !== "string") throw new InvalidParameter(`Param ${path} must be a string`);
  checkLength(value, path, max);
}

function checkLength(value: string, path: string, max: number | undefined): void {
  if (max !== undefined && charLength(value) > max) {
    throw new InvalidParameter(`Param ${path} must be at most ${max} characters long`);
  }
}
