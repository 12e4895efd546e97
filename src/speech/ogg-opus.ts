/**
 * Whether `bytes` is an OGG/Opus stream: it opens with an Ogg page
 * (`OggS`) whose first packet is an `OpusHead`. The content type a provider
 * sends is not trusted: some send WAV or MP3 under any name.
 */
export function isOggOpus(bytes: Uint8Array): boolean {
  // Ogg page header: "OggS", version, flags, granule (8), serial (4), sequence (4), CRC (4), segment count.
  if (bytes.length < 28) return false;
  if (Buffer.from(bytes.subarray(0, 4)).toString("latin1") !== "OggS") return false;
  const segments = bytes[26] ?? 0;
  const payload = 27 + segments;
  if (bytes.length < payload + 8) return false;
  return Buffer.from(bytes.subarray(payload, payload + 8)).toString("latin1") === "OpusHead";
}
