const IMAGE_MIME = /^image\/[a-z0-9][a-z0-9.+-]*$/i;

/**
 * The bytes of an image as a `data:` URL, what a model with vision is sent
 * (never a Meta media URL). Throws a TypeError when `mimeType` is not an
 * image type (a caller's mistake).
 */
export function imageDataUrl(bytes: Uint8Array, mimeType: string): string {
  const type = mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!IMAGE_MIME.test(type)) throw new TypeError(`not an image type: ${JSON.stringify(mimeType)}`);
  return `data:${type};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")}`;
}
