import type { ErrorCatalogEntry } from "../errors/index.js";

export const observabilityErrorCatalog = {
  adminUnauthorized: {
    code: "SS_ADMIN_UNAUTHORIZED",
    httpStatus: 401,
    meaning:
      "A request to the admin listener (/metrics, /readyz on ADMIN_PORT) without `Authorization: Bearer <ADMIN_TOKEN>`, or with another token.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;
