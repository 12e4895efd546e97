import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { FakeLlmRule } from "../../src/dev/index.js";
import { RECEIPT_READING_NAME } from "../../src/vision/index.js";

/** The transfer-receipt fixture (test/fixtures/media/READING.md). */
export const RECEIPT_PNG = readFileSync(new URL("../fixtures/media/transfer-receipt.png", import.meta.url));
export const RECEIPT_SHA256 = createHash("sha256").update(RECEIPT_PNG).digest("hex");

/** What a vision model reads off the fixture, as the fake LLM is scripted to answer it. */
export const RECEIPT_FIXTURE_READING = {
  isReceipt: true,
  amount: { value: 15000, currency: "₦" },
  date: "2025-03-14",
  bank: "GTBank",
  reference: "000013250314094211223344556",
  senderName: "ADEBAYO CHUKWUEMEKA OKAFOR",
  receiverName: "MAMA NKECHI FOODS LTD",
  description: "A GTBank transfer receipt.",
};

/** The fake LLM's rule: the receipt reading for the fixture's picture. */
export const RECEIPT_RULE: FakeLlmRule = {
  when: { imageSha256: RECEIPT_SHA256, responseFormat: RECEIPT_READING_NAME },
  reply: { json: RECEIPT_FIXTURE_READING },
};
