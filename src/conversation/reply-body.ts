import { mediaMessageBody } from "../media/media-message-body.js";
import type { TurnReply } from "./ports.js";

const CAPTIONED = new Set(["image", "video", "document"]);

/**
 * A TurnReply as a Graph API message body (without `to`): `text`, `interactive`
 * with reply buttons or a list, or a media message (`image`, `document`, `audio`…)
 * when it has `media`. Throws InvalidMediaMessageError for media Meta would refuse.
 */
export function replyBody(reply: TurnReply): Readonly<Record<string, unknown>> {
  if (reply.media !== undefined) {
    const { media } = reply;
    const caption =
      media.caption ?? (CAPTIONED.has(media.kind) && reply.text !== "" ? reply.text : undefined);
    return mediaMessageBody(caption === undefined ? media : { ...media, caption });
  }
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
