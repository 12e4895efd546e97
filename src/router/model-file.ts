/**
 * The router's model files (the intent model and the language model) share
 * one frame: an 8-byte magic, a 4-byte little-endian header length, the JSON
 * header, zero padding to a multiple of 4, then a body of 4-byte
 * little-endian words (each file says what they are).
 */

/** A file with `magic`, `header` and a body of `bodyWords` words that `writeBody` fills from `start`. */
export function frameModelFile(
  magic: string,
  header: unknown,
  bodyWords: number,
  writeBody: (out: Buffer, start: number) => void,
): Buffer {
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const start = Math.ceil((12 + json.length) / 4) * 4;
  const out = Buffer.alloc(start + bodyWords * 4);
  out.write(magic, 0, "latin1");
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  writeBody(out, start);
  return out;
}

/**
 * A framed file's header and body. `fail` makes the error to throw (each
 * file has its own error class); `name` says what the file is in messages.
 * The caller checks the body's length against its header.
 */
export function unframeModelFile<Header>(
  bytes: Buffer,
  magic: string,
  name: string,
  fail: (message: string) => Error,
): { readonly header: Header; readonly body: Buffer } {
  if (bytes.length < 12 || bytes.toString("latin1", 0, 8) !== magic)
    throw fail(`not a sharpsharp ${name} (bad magic)`);
  const length = bytes.readUInt32LE(8);
  if (12 + length > bytes.length) throw fail(`${name} file is truncated (header)`);
  let header: Header;
  try {
    header = JSON.parse(bytes.toString("utf8", 12, 12 + length)) as Header;
  } catch {
    throw fail(`${name} file header is not valid JSON`);
  }
  return { header, body: bytes.subarray(Math.ceil((12 + length) / 4) * 4) };
}
