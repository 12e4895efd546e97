export { mediaErrorCatalog } from "./errors.js";
export { createMediaKeeper, type MediaKeeper } from "./kept-media.js";
export { createMediaMetrics, type MediaMetrics } from "./media-metrics.js";
export {
  MEDIA_DEFAULTS,
  type MediaSettings,
  MediaSettingsError,
  resolveMediaSettings,
  type TenantSttProvider,
} from "./media-settings.js";
export {
  createTurnMediaReader,
  type MediaBytes,
  type MediaFailure,
  placeholderOf,
  type TurnMediaReaderDeps,
} from "./turn-media-reader.js";
