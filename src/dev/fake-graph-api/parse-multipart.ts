/** One part of a multipart/form-data body. */
export interface MultipartPart {
  readonly name: string;
  readonly fileName: string | undefined;
  readonly contentType: string | undefined;
  readonly data: Buffer;
}

const CRLF = Buffer.from("\r\n");

function headerParam(header: string, param: string): string | undefined {
  const match = new RegExp(`;\\s*${param}="([^"]*)"`, "i").exec(header);
  return match?.[1];
}

function parsePart(raw: Buffer): MultipartPart | undefined {
  const headerEnd = raw.indexOf("\r\n\r\n");
  if (headerEnd < 0) return undefined;
  const headers = new Map<string, string>();
  for (const line of raw.subarray(0, headerEnd).toString("utf8").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get("content-disposition") ?? "";
  const name = headerParam(disposition, "name");
  if (!/^form-data\b/i.test(disposition) || name === undefined) return undefined;
  return {
    name,
    fileName: headerParam(disposition, "filename"),
    contentType: headers.get("content-type"),
    data: raw.subarray(headerEnd + 4),
  };
}

/**
 * A minimal multipart/form-data reader for the fake's upload route (what
 * node's FormData and curl write): the parts, or undefined when the body or
 * its boundary is malformed. No nesting, no transfer encodings.
 */
export function parseMultipart(body: unknown, contentType: string | undefined): MultipartPart[] | undefined {
  const boundary = /^multipart\/form-data\s*;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  if (!Buffer.isBuffer(body) || boundary === null) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const between = Buffer.concat([CRLF, delimiter]);
  const parts: MultipartPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    const cursor = at + delimiter.length;
    if (body.subarray(cursor, cursor + 2).toString("latin1") === "--") return parts;
    if (!body.subarray(cursor, cursor + 2).equals(CRLF)) return undefined;
    const next = body.indexOf(between, cursor + 2);
    if (next < 0) return undefined;
    const part = parsePart(body.subarray(cursor + 2, next));
    if (part === undefined) return undefined;
    parts.push(part);
    at = next + CRLF.length;
  }
}
