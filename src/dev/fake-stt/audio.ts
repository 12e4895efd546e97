/**
 * Audio the fake speech server makes and measures: a WAV sine tone and a
 * silent OGG/Opus stream, both made here (no encoder needed), and the
 * length of OGG/Opus or WAV audio.
 */

/** A 16-bit mono PCM WAV of a sine tone. */
export function sineWav(seconds: number, hz = 440, sampleRate = 16_000): Buffer {
  const samples = Math.max(1, Math.round(seconds * sampleRate));
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0, "latin1");
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8, "latin1");
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write("data", 36, "latin1");
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i += 1) {
    wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / sampleRate) * 8000), 44 + i * 2);
  }
  return wav;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let crc = n << 24;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000_0000 ? (crc << 1) ^ 0x04c1_1db7 : crc << 1;
  return crc >>> 0;
});

/** Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, starting at 0. */
function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

/** One Ogg page holding whole packets (each under 255 bytes). */
function oggPage(packets: readonly Buffer[], granule: number, sequence: number, flags: number): Buffer {
  const header = Buffer.alloc(27 + packets.length);
  header.write("OggS", 0, "latin1");
  header.writeUInt8(0, 4);
  header.writeUInt8(flags, 5);
  header.writeBigUInt64LE(BigInt(granule), 6);
  header.writeUInt32LE(0x5353_5353, 14); // stream serial number
  header.writeUInt32LE(sequence, 18);
  header.writeUInt8(packets.length, 26);
  for (const [i, packet] of packets.entries()) header.writeUInt8(packet.length, 27 + i);
  const page = Buffer.concat([header, ...packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

const PRE_SKIP = 312;
// A 20 ms CELT-only full-band mono frame of silence (TOC 0xF8), as WebRTC sends in DTX.
const SILENT_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);

/** A valid mono OGG/Opus stream of silence, `seconds` long less the 6.5 ms pre-skip (20 ms frames, at most 5 s). */
export function silentOggOpus(seconds: number): Buffer {
  const frames = Math.min(250, Math.max(1, Math.round(seconds / 0.02)));
  const head = Buffer.alloc(19);
  head.write("OpusHead", 0, "latin1");
  head.writeUInt8(1, 8); // version
  head.writeUInt8(1, 9); // channels
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(48_000, 12); // input sample rate
  head.writeInt16LE(0, 16); // output gain
  head.writeUInt8(0, 18); // mapping family
  const vendor = Buffer.from("sharpsharp fake speech server", "utf8");
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write("OpusTags", 0, "latin1");
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendor.length);
  const audio: Buffer[] = [];
  let sequence = 2;
  for (let done = 0; done < frames; ) {
    const count = Math.min(100, frames - done);
    done += count;
    const last = done === frames;
    // The granule counts every decoded sample, the pre-skip ones too.
    audio.push(oggPage(Array(count).fill(SILENT_FRAME), done * 960, sequence, last ? 0x04 : 0));
    sequence += 1;
  }
  return Buffer.concat([oggPage([head], 0, 0, 0x02), oggPage([tags], 0, 1, 0), ...audio]);
}

function oggOpusSeconds(audio: Buffer): number | undefined {
  const last = audio.lastIndexOf("OggS", undefined, "latin1");
  const headAt = audio.indexOf("OpusHead", 0, "latin1");
  if (last < 0 || headAt < 0 || last + 14 > audio.length || headAt + 12 > audio.length) return undefined;
  const granule = Number(audio.readBigUInt64LE(last + 6));
  const preSkip = audio.readUInt16LE(headAt + 10);
  return Math.max(0, (granule - preSkip) / 48_000);
}

function wavSeconds(audio: Buffer): number | undefined {
  let at = 12;
  let byteRate: number | undefined;
  while (at + 8 <= audio.length) {
    const id = audio.toString("latin1", at, at + 4);
    const size = audio.readUInt32LE(at + 4);
    if (id === "fmt " && at + 16 <= audio.length) byteRate = audio.readUInt32LE(at + 16);
    if (id === "data") {
      if (byteRate === undefined || byteRate === 0) return undefined;
      return Math.min(size, audio.length - at - 8) / byteRate;
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** Length of OGG/Opus or WAV audio, s; undefined for anything else. */
export function audioSeconds(audio: Buffer): number | undefined {
  const magic = audio.toString("latin1", 0, 4);
  if (magic === "OggS") return oggOpusSeconds(audio);
  if (magic === "RIFF" && audio.toString("latin1", 8, 12) === "WAVE") return wavSeconds(audio);
  return undefined;
}
