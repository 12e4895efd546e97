export { type DocumentFacts, describeDocument } from "./describe-document.js";
export { documentsErrorCatalog, PdfTextError, type PdfTextProblem } from "./errors.js";
export { flattenForModel, formatByteSize, MAX_QUOTED_CHARS, quoteForModel } from "./media-label.js";
export {
  extractPdfText,
  loadPdfReader,
  PDF_TEXT_DEFAULTS,
  type PdfText,
  type PdfTextOptions,
  pdfTimedOut,
  pdfTooLarge,
} from "./pdf-text.js";
