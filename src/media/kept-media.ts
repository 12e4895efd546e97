import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MediaReading } from "../whatsapp/index.js";

const EXTENSIONS: Readonly<Record<string, string>> = {
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/aac": "aac",
  "audio/amr": "amr",
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "video/3gpp": "3gp",
  "application/pdf": "pdf",
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Where a tenant's kept media go: one folder per tenant and day, so retention deletes whole days. */
export interface MediaKeeper {
  keep(tenantId: string, reading: MediaReading, bytes: Buffer): Promise<string>;
  /** Deletes the tenant's days that ended before `cutoffMs`; answers the days deleted. */
  purgeOlderThan(tenantId: string, cutoffMs: number): Promise<number>;
}

/** Tenant ids are checked by the configuration, but a path is built from them: nothing but a plain name. */
function folderOf(root: string, tenantId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(tenantId))
    throw new TypeError(`tenant id not usable as a folder: ${tenantId}`);
  return join(root, tenantId);
}

/**
 * Media bytes kept for tenants that ask (`media.keep`), under
 * `<dataDir>/media/<tenant>/<day>/<sha256>.<ext>`: named by content, so a
 * turn read twice keeps one file.
 */
export function createMediaKeeper(root: string, now: () => number = Date.now): MediaKeeper {
  return {
    async keep(tenantId, reading, bytes) {
      const day = new Date(now()).toISOString().slice(0, 10);
      const folder = join(folderOf(root, tenantId), day);
      await mkdir(folder, { recursive: true });
      const name =
        Buffer.from(reading.sha256 ?? "", "base64").toString("hex") || reading.mediaId.replace(/\W/g, "");
      const base = (reading.mimeType ?? "").split(";")[0]?.trim() ?? "";
      const file = join(folder, `${name}.${EXTENSIONS[base] ?? "bin"}`);
      await writeFile(file, bytes);
      return file;
    },
    async purgeOlderThan(tenantId, cutoffMs) {
      const folder = folderOf(root, tenantId);
      const days = await readdir(folder).catch(() => [] as string[]);
      let deleted = 0;
      for (const day of days) {
        if (!DAY.test(day) || Date.parse(`${day}T00:00:00Z`) + 86_400_000 > cutoffMs) continue;
        await rm(join(folder, day), { recursive: true, force: true });
        deleted += 1;
      }
      return deleted;
    },
  };
}
