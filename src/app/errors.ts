import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const mainErrorCatalog = {
  startup: {
    code: "SS_MAIN_STARTUP",
    meaning:
      "The process cannot start in the mode the configuration asks for (for example no REDIS_URL for the ingress).",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** The process cannot start in the mode the configuration asks for. */
export class StartupError extends SharpsharpError {
  constructor(message: string) {
    super(mainErrorCatalog.startup.code, message);
  }
}
