import type { TurnReply } from "./ports.js";

/** A TurnReply as a Graph API message body (without `to`): `text`, or `interactive` with reply buttons or a list. */
export function replyBody(reply: TurnReply): Readonly<Record<string, unknown>> {
  if (reply.list !== undefined) {
    return {
      type: "interactive",
      interactive: {
        type: "list",
        body: { text: reply.text },
        action: {
          button: reply.list.button,
          sections: reply.list.sections.map((section) => ({
            ...(section.title === undefined ? {} : { title: section.title }),
            rows: section.rows.map((row) => ({
              id: row.id,
              title: row.title,
              ...(row.description === undefined ? {} : { description: row.description }),
            })),
          })),
        },
      },
    };
  }
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
