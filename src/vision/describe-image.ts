import { flattenForModel, formatByteSize, quoteForModel } from "../documents/index.js";

export interface ImageFacts {
  readonly caption?: string;
  readonly mimeType: string;
  /** Bytes; unknown when the image was not downloaded. */
  readonly size?: number;
}

/**
 * What the agent is told about an image when the tenant's model has no
 * vision: type, size and caption on one bracketed line, and what to do about
 * it, e.g. `[image: image/jpeg, 48 KB, caption "my payment"; you cannot see
 * images: if what it shows matters, ask the customer to type it]`. No URL.
 */
export function describeImageWithoutVision(facts: ImageFacts): string {
  const caption =
    facts.caption === undefined || facts.caption.trim() === ""
      ? "no caption"
      : `caption ${quoteForModel(facts.caption)}`;
  return (
    `[image: ${flattenForModel(facts.mimeType, 100)}, ${facts.size === undefined ? "" : `${formatByteSize(facts.size)}, `}${caption}; ` +
    "you cannot see images: if what it shows matters, ask the customer to type it]"
  );
}
