import { deflateSync } from "node:zlib";

/**
 * A valid PDF whose first page holds `lines` separate text runs (compressed), so pdf.js spends a
 * long time on it: about a second of one core for 20,000 lines on the 2-vCPU machines of
 * bench/RESULTS.md. Built rather than committed: its size is a parameter (tests, bench/media).
 */
export function heavyPdf(lines: number): Buffer {
  let ops = "";
  for (let i = 0; i < lines; i++) {
    const x = 10 + (i % 7) * 80;
    const y = 780 - (i % 130) * 6;
    ops += `BT /F1 6 Tf ${x} ${y} Td (Transfer ${i} NGN ${(i * 37) % 100_000}.00 ref TRX${i}) Tj ET\n`;
  }
  const stream = deflateSync(Buffer.from(ops, "latin1"));
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
    `<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n${stream.toString("latin1")}\nendstream`,
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}
