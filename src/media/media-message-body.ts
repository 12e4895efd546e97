import { InvalidMediaMessageError } from "./errors.js";
import type { MediaKind } from "./media-limits.js";

/** A media message to send: by an uploaded `id` or an https `link`, exactly one. */
export interface OutboundMedia {
  readonly kind: MediaKind;
  readonly id?: string;
  readonly link?: string;
  /** image, video and document only; at most 1,024 characters. */
  readonly caption?: string;
  /** document only: the name the customer sees. */
  readonly fileName?: string;
  /** audio only: send as a voice note (the file must be OGG/OPUS). */
  readonly voice?: boolean;
}

const CAPTIONED: ReadonlySet<MediaKind> = new Set(["image", "video", "document"]);
const MAX_CAPTION = 1024;

/**
 * The Cloud API body (without `to` and `messaging_product`) of a media
 * message: `{ type: "image", image: { id | link, caption? } }`, documents with
 * `filename`, audio with `voice: true` for a voice note. Throws
 * InvalidMediaMessageError for a body Meta would refuse.
 */
export function mediaMessageBody(
  media: OutboundMedia,
): { readonly type: MediaKind } & Record<string, unknown> {
  const { kind } = media;
  const hasId = media.id !== undefined && media.id !== "";
  const hasLink = media.link !== undefined && media.link !== "";
  if (hasId === hasLink) throw new InvalidMediaMessageError(`${kind} needs exactly one of id and link`);
  if (hasLink && !/^https:\/\/\S+$/i.test(media.link as string)) {
    throw new InvalidMediaMessageError(`${kind} link must be an https URL`);
  }
  if (media.caption !== undefined && !CAPTIONED.has(kind))
    throw new InvalidMediaMessageError(`${kind} takes no caption`);
  if (media.caption !== undefined && [...media.caption].length > MAX_CAPTION) {
    throw new InvalidMediaMessageError(`caption is over ${MAX_CAPTION} characters`);
  }
  if (media.fileName !== undefined && kind !== "document")
    throw new InvalidMediaMessageError(`${kind} takes no file name`);
  if (media.voice !== undefined && kind !== "audio")
    throw new InvalidMediaMessageError(`${kind} cannot be a voice note`);
  return {
    type: kind,
    [kind]: {
      ...(hasId ? { id: media.id } : { link: media.link }),
      ...(media.caption === undefined || media.caption === "" ? {} : { caption: media.caption }),
      ...(media.fileName === undefined ? {} : { filename: media.fileName }),
      ...(media.voice === true ? { voice: true } : {}),
    },
  };
}
