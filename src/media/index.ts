/** Meta's media download hosts (the token goes there over https only). */
export { DEFAULT_MEDIA_HOST_SUFFIXES } from "../whatsapp/index.js";
export {
  createMediaDownloader,
  type DownloadedMedia,
  type MediaDownloader,
  type MediaDownloaderDeps,
  type MediaDownloaderOptions,
  type MediaDownloadRequest,
} from "./download-media.js";
export {
  DisallowedMediaHostError,
  InvalidMediaMessageError,
  MediaChecksumError,
  MediaError,
  MediaNotFoundError,
  MediaRefusedError,
  MediaThreadFailedError,
  MediaTooLargeError,
  MediaUnavailableError,
  mediaErrorCatalog,
  UnsupportedMediaTypeError,
} from "./errors.js";
export { createMediaKeeper, type MediaKeeper } from "./kept-media.js";
export { MEDIA_KINDS, META_MEDIA_LIMITS, type MediaKind, mediaLimits } from "./media-limits.js";
export { mediaMessageBody, type OutboundMedia } from "./media-message-body.js";
export { createMediaMetrics, type MediaMetrics } from "./media-metrics.js";
export {
  MEDIA_DEFAULTS,
  type MediaSettings,
  MediaSettingsError,
  resolveMediaSettings,
  type TenantSttProvider,
} from "./media-settings.js";
export {
  checkOutboundMedia,
  OUTBOUND_MIME_TYPES,
  type OutboundMediaFile,
  type OutboundUpload,
  STATIC_STICKER_MAX_BYTES,
  uploadOutboundMedia,
} from "./outbound-media.js";
export { sha256Base64, sha256Matches } from "./sha256.js";
export {
  createTurnMediaReader,
  type MediaBytes,
  type MediaFailure,
  placeholderOf,
  type TurnMediaReaderDeps,
} from "./turn-media-reader.js";
