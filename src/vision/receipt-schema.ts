import { z } from "zod";

const nullableString = (description: string) => ({ type: ["string", "null"], description });

/** The structured-output name of a receipt reading. */
export const RECEIPT_READING_NAME = "receipt_reading";

/**
 * What the model is asked to answer, as a JSON schema that suits strict
 * structured outputs: every field required, none extra, absent ones null.
 */
export const RECEIPT_READING_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["isReceipt", "amount", "date", "bank", "reference", "senderName", "receiverName", "description"],
  properties: {
    isReceipt: {
      type: "boolean",
      description:
        "true when the image is a payment receipt or a bank transfer confirmation (a banking app's screen, a POS slip)",
    },
    amount: {
      anyOf: [
        {
          type: "object",
          additionalProperties: false,
          required: ["value", "currency"],
          properties: {
            value: { type: "number", description: "The amount paid as a number: 15000.5 for ₦15,000.50" },
            currency: { type: "string", description: "ISO 4217 code: NGN for ₦, N or naira" },
          },
        },
        { type: "null" },
      ],
    },
    date: nullableString(
      "The transaction date: YYYY-MM-DD when day, month and year are printed, else as printed",
    ),
    bank: nullableString("The bank or wallet the receipt is from (the sender's), as named on it"),
    reference: nullableString("The transaction reference or session id, exactly as printed"),
    senderName: nullableString("Who paid, as printed"),
    receiverName: nullableString("Who was paid (the beneficiary), as printed"),
    description: { type: "string", description: "One short sentence saying what the image shows" },
  },
} as const;

const text = z.string().nullish();

/** The answer as it comes back, checked; lenient with providers that leave a null field out. */
export const receiptAnswerSchema = z.object({
  isReceipt: z.boolean(),
  amount: z.object({ value: z.number().finite().nonnegative(), currency: z.string() }).nullish(),
  date: text,
  bank: text,
  reference: text,
  senderName: text,
  receiverName: text,
  description: z.string(),
});

export type ReceiptAnswer = z.infer<typeof receiptAnswerSchema>;
