import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const visionErrorCatalog = {
  malformedReading: {
    code: "SS_VISION_MALFORMED_READING",
    meaning:
      "The model's answer to a receipt reading is not one JSON object matching the receipt schema (not JSON, cut short, a refusal, a field of the wrong type).",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** The model's structured answer could not be used; what it wrote is kept in `content` (never logged whole). */
export class ReceiptReadingError extends SharpsharpError {
  readonly content: string | null;

  constructor(problem: string, content: string | null, cause?: unknown) {
    super(
      visionErrorCatalog.malformedReading.code,
      `the model's receipt reading cannot be used: ${problem}`,
      cause === undefined ? {} : { cause },
    );
    this.content = content;
  }
}
