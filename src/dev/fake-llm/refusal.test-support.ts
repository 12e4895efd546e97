import { InvalidRequest } from "./openai-error.js";
import { validateChatRequest } from "./validate-chat-request.js";

/** What the fake answers a request it refuses (as OpenAI's 400), for the validators' tests. */
export function refusal(body: unknown): { message: string; param: string | null; code: string | null } {
  try {
    validateChatRequest(body);
  } catch (error) {
    if (error instanceof InvalidRequest)
      return { message: error.message, param: error.param, code: error.code };
    throw error;
  }
  throw new Error("the request was accepted");
}
