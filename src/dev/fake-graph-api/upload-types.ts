const MB = 1024 * 1024;

// Meta's supported media table (docs: media, "Supported media types").
const LIMITS: Readonly<Record<string, number>> = {
  "audio/aac": 16 * MB,
  "audio/amr": 16 * MB,
  "audio/mpeg": 16 * MB,
  "audio/mp4": 16 * MB,
  "audio/ogg": 16 * MB,
  "image/jpeg": 5 * MB,
  "image/png": 5 * MB,
  "image/webp": 500 * 1024,
  "video/mp4": 16 * MB,
  "video/3gpp": 16 * MB,
  "text/plain": 100 * MB,
  "application/pdf": 100 * MB,
  "application/msword": 100 * MB,
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": 100 * MB,
  "application/vnd.ms-excel": 100 * MB,
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": 100 * MB,
  "application/vnd.ms-powerpoint": 100 * MB,
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": 100 * MB,
};

/**
 * Why Meta would refuse to store a file of `mimeType` and `size` bytes (its
 * 131053 details), or undefined if it takes it. `audio/ogg` must be OPUS.
 */
export function uploadRefusal(mimeType: string, size: number): string | undefined {
  const [essence = "", ...params] = mimeType
    .toLowerCase()
    .split(";")
    .map((part) => part.trim());
  const limit = LIMITS[essence];
  if (limit === undefined) return `Unsupported Upload Media type: '${mimeType}'`;
  if (essence === "audio/ogg" && !params.some((param) => /^codecs="?opus"?$/.test(param))) {
    return "Unsupported Upload Media type: audio/ogg must be OPUS (audio/ogg; codecs=opus)";
  }
  return size > limit ? `Media file size too big: ${size} bytes, at most ${limit}` : undefined;
}
