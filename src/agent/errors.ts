import type { ErrorCatalogEntry } from "../errors/index.js";

export const agentErrorCatalog = {
  invalidSettings: {
    code: "SS_AGENT_INVALID_SETTINGS",
    meaning:
      "A tenant's agent settings (`persona`, `policies`, `holding`, `knowledge`, `llm`, `limits`, `agent`) are malformed or a knowledge id repeats; every problem is listed and the worker does not start.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;
