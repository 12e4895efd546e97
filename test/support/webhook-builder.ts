// The builders live in src/dev so `sharpsharp simulate` signs the same bytes the tests do.
export {
  buttonReplyWebhook,
  escapeNonAscii,
  type TextMessageSpec,
  textWebhook,
} from "../../src/dev/index.js";
