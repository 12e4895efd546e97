import { createHash } from "node:crypto";

/** A media file the fake serves, as registered by a test. */
export interface FakeMedia {
  readonly bytes: Buffer | Uint8Array | string;
  readonly mimeType: string;
}

export interface StoredMedia {
  readonly bytes: Buffer;
  readonly mimeType: string;
  /** base64 SHA-256 of the bytes, as Meta reports it. */
  readonly sha256: string;
}

export interface MediaStore {
  add(id: string, media: FakeMedia): void;
  /** Stores an uploaded file under a fresh numeric id, as Meta's are, and returns the id. */
  addUploaded(media: FakeMedia): string;
  get(id: string): StoredMedia | undefined;
  clear(): void;
}

/** Media files by id, in memory. */
export function createMediaStore(): MediaStore {
  const files = new Map<string, StoredMedia>();
  let uploads = 0;
  const add = (id: string, media: FakeMedia) => {
    const bytes = Buffer.from(media.bytes);
    files.set(id, {
      bytes,
      mimeType: media.mimeType,
      sha256: createHash("sha256").update(bytes).digest("base64"),
    });
  };
  return {
    add,
    addUploaded(media) {
      uploads += 1;
      const id = String(1_453_920_184_000_000n + BigInt(uploads));
      add(id, media);
      return id;
    },
    get: (id) => files.get(id),
    clear: () => files.clear(),
  };
}
