import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractPdfText, PdfTextError } from "../../src/documents/index.js";

const media = (name: string) => readFileSync(new URL(`../fixtures/media/${name}`, import.meta.url));
const invoice = media("order-invoice.pdf");

async function failure(promise: Promise<unknown>): Promise<PdfTextError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof PdfTextError)) throw new Error(`expected a PdfTextError, got ${String(error)}`);
  return error;
}

describe("extractPdfText", () => {
  it("reads the text of both pages of the invoice, lines kept, pages apart", async () => {
    const result = await extractPdfText(invoice);
    expect(result).toMatchObject({ pages: 2, pagesRead: 2, truncated: false });
    const [first, second] = result.text.split("\n\n");
    expect(first).toMatch(
      /^Mama Nkechi Foods Ltd - Invoice INV-2291\nOrder ORD-2291, issued 14 March 2025\n/,
    );
    expect(first).toContain("Jollof rice party tray 1 9,500.00");
    expect(first).toMatch(/Total due: NGN 15,000\.00$/);
    expect(second).toMatch(/^Payment and delivery terms\nPay by bank transfer to GTBank account 0123456789/);
    expect(second).toMatch(/Refunds for cancelled orders are paid within 5 working days\.$/);
  });

  it("reads no page past maxPages, and says the text is cut", async () => {
    const result = await extractPdfText(invoice, { maxPages: 1 });
    expect(result).toMatchObject({ pages: 2, pagesRead: 1, truncated: true });
    expect(result.text).toContain("Total due: NGN 15,000.00");
    expect(result.text).not.toContain("Payment and delivery terms");
  });

  it("cuts the text at maxChars and reads no further page once it is reached", async () => {
    const result = await extractPdfText(invoice, { maxChars: 60 });
    expect([...result.text]).toHaveLength(60);
    expect(result.text.startsWith("Mama Nkechi Foods Ltd - Invoice INV-2291\nOrder ORD-2291")).toBe(true);
    expect(result).toMatchObject({ pages: 2, pagesRead: 1, truncated: true });
  });

  it("leaves the caller's bytes intact (pdf.js gets a copy)", async () => {
    const bytes = Buffer.from(invoice);
    await extractPdfText(bytes);
    expect(bytes.equals(invoice)).toBe(true);
    expect(await extractPdfText(bytes)).toMatchObject({ pages: 2 });
  });

  it("refuses a PDF locked with a user password as encrypted", async () => {
    const error = await failure(extractPdfText(media("order-invoice-locked.pdf")));
    expect(error.code).toBe("SS_DOCUMENTS_PDF_ENCRYPTED");
  });

  it.each([
    ["not a PDF", Buffer.from("this is a plain text file, not a PDF")],
    ["a truncated PDF", invoice.subarray(0, 1_200)],
    ["empty bytes", Buffer.alloc(0)],
    ["a PNG", media("transfer-receipt.png")],
  ])("refuses %s as unreadable, without crashing", async (_name, bytes) => {
    const error = await failure(extractPdfText(bytes));
    expect(error.code).toBe("SS_DOCUMENTS_PDF_UNREADABLE");
  });

  it("refuses input over maxBytes before parsing it", async () => {
    const error = await failure(extractPdfText(invoice, { maxBytes: 1_000 }));
    expect(error.code).toBe("SS_DOCUMENTS_PDF_TOO_LARGE");
  });

  it("stops at the time limit with a typed error", async () => {
    const error = await failure(extractPdfText(invoice, { timeoutMs: 1 }));
    expect(error.code).toBe("SS_DOCUMENTS_PDF_TIMEOUT");
  });

  it("stops when the caller aborts, with the caller's reason", async () => {
    const controller = new AbortController();
    controller.abort(new Error("turn over"));
    await expect(extractPdfText(invoice, { signal: controller.signal })).rejects.toThrow("turn over");
  });

  it("rejects nonsensical limits", async () => {
    await expect(extractPdfText(invoice, { maxPages: 0 })).rejects.toThrow(RangeError);
    await expect(extractPdfText(invoice, { maxChars: 1.5 })).rejects.toThrow(RangeError);
  });
});
