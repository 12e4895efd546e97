import { z } from "zod";

/** Faults on one media id, for tests of the media downloader. */
export const mediaFaultSchema = z.strictObject({
  mediaId: z.string().min(1),
  /** The next N URLs `GET /{media-id}` hands out are expired already (their download answers 404). */
  expireUrls: z.number().int().positive().optional(),
  /** Downloads serve bytes that no longer match the sha256 (one byte flipped), until cleared. */
  corrupt: z.boolean().optional(),
  /** The next N downloads are answered 500 with error 131000. */
  failDownloads: z.number().int().positive().optional(),
  /** The next N `GET /{media-id}` lookups are answered 500 with error 131000. */
  failLookups: z.number().int().positive().optional(),
});
export type MediaFault = z.infer<typeof mediaFaultSchema>;

/** The media faults in force, each counter spent as the fake answers. */
export interface MediaFaults {
  settings(): MediaFault[];
  /** Replaces every media fault. */
  set(faults: readonly MediaFault[]): void;
  takeExpiredUrl(mediaId: string): boolean;
  isCorrupt(mediaId: string): boolean;
  takeDownloadFailure(mediaId: string): boolean;
  takeLookupFailure(mediaId: string): boolean;
}

type Counter = "expireUrls" | "failDownloads" | "failLookups";

export function createMediaFaults(): MediaFaults {
  const byId = new Map<string, { -readonly [K in keyof MediaFault]: MediaFault[K] }>();
  const take = (mediaId: string, counter: Counter): boolean => {
    const fault = byId.get(mediaId);
    const left = fault?.[counter];
    if (fault === undefined || left === undefined) return false;
    if (left <= 1) delete fault[counter];
    else fault[counter] = left - 1;
    return true;
  };
  return {
    settings: () => [...byId.values()].map((fault) => ({ ...fault })),
    set(faults) {
      byId.clear();
      for (const fault of faults) byId.set(fault.mediaId, { ...fault });
    },
    takeExpiredUrl: (mediaId) => take(mediaId, "expireUrls"),
    isCorrupt: (mediaId) => byId.get(mediaId)?.corrupt === true,
    takeDownloadFailure: (mediaId) => take(mediaId, "failDownloads"),
    takeLookupFailure: (mediaId) => take(mediaId, "failLookups"),
  };
}
