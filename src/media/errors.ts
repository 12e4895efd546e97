import type { ErrorCatalogEntry } from "../errors/index.js";

export const mediaErrorCatalog = {
  invalidSettings: {
    code: "SS_MEDIA_INVALID_SETTINGS",
    meaning:
      "A tenant's `media` settings (`stt`, `vision`, `keep`, `maxBytes`, `readBudgetMs`, `voiceReplies`, `notices`) are malformed, or a `maxBytes` is above Meta's limit for the kind; every problem is listed and the worker does not start.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;
