import { createHash } from "node:crypto";
import type { ChatImage, ChatRole } from "./chat-request.js";
import { isObject } from "./json-object.js";
import { InvalidRequest } from "./openai-error.js";

/** The part types OpenAI accepts in each role's content array. */
const PART_TYPES: Record<ChatRole, readonly string[]> = {
  system: ["text"],
  developer: ["text"],
  user: ["text", "image_url", "input_audio", "file"],
  assistant: ["text", "refusal"],
  tool: ["text"],
};

const DETAILS = ["auto", "low", "high"] as const;
/** The image formats OpenAI reads, by declared type. */
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp"];
const DATA_URL = /^data:([^;,]+)((?:;[^;,]+)*);base64,(.*)$/is;

/** The first bytes of each format OpenAI reads. */
function looksLikeImage(bytes: Buffer): boolean {
  const starts = (hex: string) => bytes.subarray(0, hex.length / 2).toString("hex") === hex;
  return (
    starts("89504e470d0a1a0a") ||
    starts("ffd8ff") ||
    starts("474946383761") ||
    starts("474946383961") ||
    (starts("52494646") && bytes.subarray(8, 12).toString("latin1") === "WEBP")
  );
}

function unsupportedImage(param: string): InvalidRequest {
  return new InvalidRequest(
    "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the " +
      "following formats: ['png', 'jpeg', 'gif', 'webp'].",
    param,
    "invalid_image_format",
  );
}

function readImage(part: Record<string, unknown>, at: string): ChatImage {
  const image = part.image_url;
  if (!isObject(image) || typeof image.url !== "string") {
    throw new InvalidRequest(
      `Missing required parameter: '${at}.image_url.url'.`,
      `${at}.image_url.url`,
      "missing_required_parameter",
    );
  }
  const detail = image.detail ?? "auto";
  if (!DETAILS.includes(detail as (typeof DETAILS)[number])) {
    throw new InvalidRequest(
      `Invalid value: '${String(detail)}'. Supported values are: 'auto', 'low' and 'high'.`,
      `${at}.image_url.detail`,
      "invalid_value",
    );
  }
  const checked = detail as (typeof DETAILS)[number];
  if (/^https?:\/\//i.test(image.url)) return { source: "url", url: image.url, detail: checked };
  const data = DATA_URL.exec(image.url);
  if (data === null) {
    throw new InvalidRequest(
      `Invalid '${at}.image_url.url': expected a URL or a base64-encoded data URL ('data:image/png;base64,...').`,
      `${at}.image_url.url`,
      "invalid_value",
    );
  }
  const mimeType = (data[1] ?? "").toLowerCase();
  const base64 = (data[3] ?? "").replace(/\s+/g, "");
  if (!IMAGE_TYPES.includes(mimeType) || !/^[a-z0-9+/]*={0,2}$/i.test(base64)) throw unsupportedImage(at);
  const bytes = Buffer.from(base64, "base64");
  if (!looksLikeImage(bytes)) throw unsupportedImage(at);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { source: "data", mimeType, bytes: bytes.length, sha256, detail: checked };
}

/**
 * A message's content: a string, or OpenAI's array of parts checked as
 * OpenAI checks it (which part types the role may send; an image part's
 * URL and detail; a data URL's type and bytes). Text parts are joined.
 */
export function readContent(
  value: unknown,
  param: string,
  role: ChatRole,
  required: boolean,
): { text: string; images: ChatImage[] } {
  if (value === undefined || value === null) {
    if (required)
      throw new InvalidRequest(
        `Missing required parameter: '${param}'.`,
        param,
        "missing_required_parameter",
      );
    return { text: "", images: [] };
  }
  if (typeof value === "string") return { text: value, images: [] };
  if (!Array.isArray(value)) {
    throw new InvalidRequest(
      `Invalid type for '${param}': expected one of a string or array of objects, but got ${typeof value} instead.`,
      param,
      "invalid_type",
    );
  }
  let text = "";
  const images: ChatImage[] = [];
  for (const [index, part] of value.entries()) {
    const at = `${param}[${index}]`;
    if (!isObject(part) || typeof part.type !== "string") {
      throw new InvalidRequest(`Missing required parameter: '${at}.type'.`, `${at}.type`);
    }
    const allowed = PART_TYPES[role];
    if (!allowed.includes(part.type)) {
      const list = allowed.map((type) => `'${type}'`).join(", ");
      throw new InvalidRequest(
        `Invalid value: '${part.type}'. Supported values are: ${list}.`,
        `${at}.type`,
        "invalid_value",
      );
    }
    if (part.type === "text") {
      if (typeof part.text !== "string") {
        throw new InvalidRequest(
          `Missing required parameter: '${at}.text'.`,
          `${at}.text`,
          "missing_required_parameter",
        );
      }
      text += part.text;
    } else if (part.type === "image_url") {
      images.push(readImage(part, at));
    }
  }
  return { text, images };
}
