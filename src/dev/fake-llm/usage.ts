import type { ChatRequest } from "./chat-request.js";
import type { ComposedReply } from "./compose-reply.js";

/** OpenAI's `usage` object. */
export interface Usage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

/** Rough tokens per character of English text (OpenAI's own rule of thumb). */
const CHARS_PER_TOKEN = 4;
/** OpenAI's chat format adds a few tokens of framing to every message. */
const TOKENS_PER_MESSAGE = 3;
/** An image at low detail costs OpenAI a flat 85 tokens; at high (and auto) a 1024×1024 picture costs 765. */
const IMAGE_TOKENS = { low: 85, high: 765, auto: 765 } as const;

/** Characters as a person counts them: an emoji or an accented letter is one. */
function chars(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * Token counts that grow with the request's size as a real model's do, so
 * budget and cost code sees realistic numbers: prompt = ⌈characters of the
 * message contents, tool-call arguments and tools JSON / 4⌉ + 3 per message
 * + 85 per low-detail image and 765 per other image (a data URL's characters
 * are not text);
 * completion = ⌈characters of the content, or of the tool names and
 * arguments, / 4⌉, at least 1.
 */
export function countUsage(request: ChatRequest, reply: ComposedReply): Usage {
  let promptChars = chars(request.toolsJson);
  for (const message of request.messages) {
    promptChars += chars(message.text);
    for (const call of message.toolCalls) promptChars += chars(call.arguments);
  }
  const images = request.messages
    .flatMap((message) => message.images)
    .reduce((sum, image) => sum + IMAGE_TOKENS[image.detail], 0);
  const prompt =
    Math.ceil(promptChars / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE * request.messages.length + images;
  const outputChars =
    chars(reply.content ?? "") +
    reply.toolCalls.reduce((sum, call) => sum + chars(call.name) + chars(call.arguments), 0);
  const completion = Math.max(1, Math.ceil(outputChars / CHARS_PER_TOKEN));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
