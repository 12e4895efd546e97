import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const documentsErrorCatalog = {
  pdfEncrypted: {
    code: "SS_DOCUMENTS_PDF_ENCRYPTED",
    meaning:
      "A PDF needs a password to open (bank statements often do); its text was not read. The agent is told a PDF came that could not be read.",
  },
  pdfUnreadable: {
    code: "SS_DOCUMENTS_PDF_UNREADABLE",
    meaning:
      "The bytes are not a PDF the reader can parse (corrupt, truncated, or another format); no text was read.",
  },
  pdfTooLarge: {
    code: "SS_DOCUMENTS_PDF_TOO_LARGE",
    meaning: "A PDF is over the reader's `maxBytes` (default 10 MiB); it was not parsed.",
  },
  pdfTimeout: {
    code: "SS_DOCUMENTS_PDF_TIMEOUT",
    meaning:
      "Reading a PDF's text took longer than its `timeoutMs` (default 5 s); reading stopped and the document was released.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** Why a PDF's text was not read. */
export type PdfTextProblem = keyof typeof documentsErrorCatalog;

/** A PDF whose text could not be read; `code` says why (see documentsErrorCatalog). */
export class PdfTextError extends SharpsharpError {
  readonly problem: PdfTextProblem;

  constructor(problem: PdfTextProblem, message: string, cause?: unknown) {
    super(documentsErrorCatalog[problem].code, message, cause === undefined ? {} : { cause });
    this.problem = problem;
  }
}
