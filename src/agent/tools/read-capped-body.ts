/** A response body read up to a byte limit. */
export interface CappedBody {
  /** UTF-8 text; when truncated, it ends before any character the cut split. */
  readonly text: string;
  /** More bytes followed the limit; they were not read. */
  readonly truncated: boolean;
}

/**
 * Reads at most `maxBytes` of `body` as UTF-8, chunk by chunk. If more
 * follows, it cancels the stream, which closes the connection: a 5 MB answer
 * costs `maxBytes` of memory and the bytes already in flight, not 5 MB.
 * Rejects when the stream errors (an aborted or cut-off response).
 */
export async function readCappedBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<CappedBody> {
  if (body === null) return { text: "", truncated: false };
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), truncated: false };
    const room = maxBytes - size;
    if (value.byteLength > room) {
      // Decoding in stream mode and never flushing drops a half-read trailing character instead of
      // turning it into U+FFFD.
      text += decoder.decode(value.subarray(0, room), { stream: true });
      await reader.cancel().catch(() => undefined);
      return { text, truncated: true };
    }
    size += value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
}
