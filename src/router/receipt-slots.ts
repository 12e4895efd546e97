import type { InboundMessage } from "../whatsapp/index.js";
import { detectBank } from "./bank-slot.js";
import type { RouterSlots } from "./slots.js";

/** Longest reference or bank name taken from a receipt (the media reader cuts its fields at 200). */
const MAX_FIELD_CHARS = 100;

const text = (value: unknown): string | undefined => {
  if (typeof value !== "string") return undefined;
  const flat = value.replace(/\s+/gu, " ").trim();
  return flat === "" ? undefined : flat.slice(0, MAX_FIELD_CHARS);
};

/** A naira amount: the router's `amount` is naira, so another currency gives none. */
function nairaOf(amount: unknown): number | undefined {
  if (typeof amount !== "object" || amount === null) return undefined;
  const { value, currency } = amount as { value?: unknown; currency?: unknown };
  if (currency !== "NGN" || typeof value !== "number" || !Number.isFinite(value) || value <= 0)
    return undefined;
  return Math.round(value * 100) / 100;
}

/** The router's slots one receipt reading gives. */
function slotsOfReceipt(receipt: Readonly<Record<string, unknown>>): RouterSlots {
  const slots: RouterSlots = {};
  const amount = nairaOf(receipt.amount);
  if (amount !== undefined) slots.amount = amount;
  // References are written as the router writes them: upper case, without the spaces receipts group them by.
  const reference = text(receipt.reference)?.replaceAll(" ", "").toUpperCase();
  if (reference !== undefined) slots.reference = reference;
  const bank = text(receipt.bank);
  if (bank !== undefined) slots.bank = detectBank(bank) ?? bank;
  const date = text(receipt.date);
  if (date !== undefined) slots.date = date;
  return slots;
}

/**
 * The router's slots that the turn's transfer receipts give (a picture the
 * media reader read into `reading.receipt`): amount (naira only), reference,
 * bank (its canonical name when the router knows it) and date (as the receipt
 * prints it, `2025-03-14`). The sender's and receiver's names have no router
 * slot; the agent reads them. Where two receipts give the same slot, the
 * first one's stands.
 */
export function receiptSlotsOf(messages: readonly InboundMessage[]): RouterSlots {
  let slots: RouterSlots = {};
  for (const message of messages) {
    const receipt = message.reading?.receipt;
    if (receipt !== undefined) slots = { ...slotsOfReceipt(receipt), ...slots };
  }
  return slots;
}

/**
 * The customer's slots with a receipt's filling the gaps: what the customer
 * wrote stands (they may be telling about another transfer than the picture
 * shows), the receipt gives what they did not write.
 */
export function withReceiptSlots(slots: RouterSlots, messages: readonly InboundMessage[]): RouterSlots {
  const fromReceipts = receiptSlotsOf(messages);
  return Object.keys(fromReceipts).length === 0 ? slots : { ...fromReceipts, ...slots };
}
