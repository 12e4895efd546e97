import type { TurnReply } from "./ports.js";

/** A TurnReply as a Graph API message body (without `to`): `text`, or `interactive` with reply buttons. */
export function replyBody(reply: TurnReply): Readonly<Record<string, unknown>> {
  if (reply.buttons === undefined || reply.buttons.length === 0) {
    return { type: "text", text: { body: reply.text } };
  }
  return {
    type: "interactive",
    interactive: {
      type: "button",
      body: { text: reply.text },
      action: {
        buttons: reply.buttons.map((button) => ({
          type: "reply",
          reply: { id: button.id, title: button.title },
        })),
      },
    },
  };
}
