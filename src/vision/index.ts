export { describeImageWithoutVision, type ImageFacts } from "./describe-image.js";
export { ReceiptReadingError, visionErrorCatalog } from "./errors.js";
export { imageDataUrl } from "./image-data-url.js";
export {
  type ReceiptImage,
  type ReceiptReading,
  type ReceiptSlots,
  readReceipt,
} from "./receipt-reader.js";
export { RECEIPT_READING_NAME, RECEIPT_READING_SCHEMA } from "./receipt-schema.js";
