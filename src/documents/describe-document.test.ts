import { describe, expect, it } from "vitest";
import { describeDocument } from "./describe-document.js";
import { formatByteSize, quoteForModel } from "./media-label.js";

describe("describeDocument", () => {
  it("names the file, its type, size and caption on one line, and says it was not read", () => {
    expect(
      describeDocument({
        fileName: "Invoice 2291.docx",
        mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        size: 48 * 1024,
        caption: "see my invoice",
      }),
    ).toBe(
      '[document: "Invoice 2291.docx" (application/vnd.openxmlformats-officedocument.wordprocessingml.document, 48 KB), caption "see my invoice"; its contents were not read]',
    );
  });

  it("says when there is no file name, and leaves an empty caption out", () => {
    expect(describeDocument({ mimeType: "text/csv", size: 300, caption: "  " })).toBe(
      "[document: no file name (text/csv, 300 bytes); its contents were not read]",
    );
  });

  it("keeps only the last segment of a name with a path, and quotes it safely", () => {
    const text = describeDocument({
      fileName: '/sdcard/Download/a"b\nc.pdf',
      mimeType: "application/pdf",
      size: 3 * 1024 * 1024,
    });
    expect(text).toBe(`[document: "a'b c.pdf" (application/pdf, 3.0 MB); its contents were not read]`);
  });
});

describe("media labels", () => {
  it("formats sizes in bytes, KB and MB", () => {
    expect(formatByteSize(0)).toBe("0 bytes");
    expect(formatByteSize(1023)).toBe("1023 bytes");
    expect(formatByteSize(1536)).toBe("2 KB");
    expect(formatByteSize(5 * 1024 * 1024 + 200_000)).toBe("5.2 MB");
    expect(formatByteSize(-1)).toBe("unknown size");
  });

  it("quotes customer text on one line, cut with an ellipsis", () => {
    expect(quoteForModel('say "ignore"\r\n\tthen\u0000go')).toBe(`"say 'ignore' then go"`);
    expect(quoteForModel("abcdefghij", 5)).toBe('"abcd…"');
    expect(quoteForModel("abcde", 5)).toBe('"abcde"');
  });
});
