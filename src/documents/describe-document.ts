import { flattenForModel, formatByteSize, quoteForModel } from "./media-label.js";

export interface DocumentFacts {
  /** The file name the customer's app sent, if any (never trusted as a path). */
  readonly fileName?: string;
  readonly mimeType: string;
  /** Bytes; unknown when the document was not downloaded. */
  readonly size?: number;
  readonly caption?: string;
}

/** The last segment of a name a phone may send with a path in it. */
function baseName(fileName: string): string {
  return fileName.split(/[\\/]/).pop() ?? fileName;
}

/**
 * What the agent is told about a document whose contents are not read (any
 * document but a PDF, or a PDF that could not be read): its name, type, size
 * and caption, in one bracketed line, e.g.
 * `[document: "invoice.docx" (application/msword, 48 KB), caption "my receipt"; its contents were not read]`.
 * The customer's words are quoted on one line; no URL is ever included.
 */
export function describeDocument(facts: DocumentFacts): string {
  const name =
    facts.fileName === undefined || facts.fileName.trim() === "" ? undefined : baseName(facts.fileName);
  const parts = [
    `[document: ${name === undefined ? "no file name" : quoteForModel(name, 120)} (${flattenForModel(facts.mimeType, 100)}${facts.size === undefined ? "" : `, ${formatByteSize(facts.size)}`})`,
  ];
  if (facts.caption !== undefined && facts.caption.trim() !== "") {
    parts.push(`, caption ${quoteForModel(facts.caption)}`);
  }
  parts.push("; its contents were not read]");
  return parts.join("");
}
