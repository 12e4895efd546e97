import { randomBytes } from "node:crypto";

/** Where the fake's identifiers come from; tests inject their own. */
export interface FakeLlmIds {
  /** `chatcmpl-…` */
  completion(): string;
  /** `call_…` */
  toolCall(): string;
  /** `req_…`, sent as `x-request-id`. */
  request(): string;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function alphanumeric(length: number): string {
  // 248 is the largest multiple of 62 under 256: no modulo bias.
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** Ids shaped like OpenAI's. */
export function createDefaultIds(): FakeLlmIds {
  return {
    completion: () => `chatcmpl-${alphanumeric(29)}`,
    toolCall: () => `call_${alphanumeric(24)}`,
    request: () => `req_${randomBytes(16).toString("hex")}`,
  };
}
