import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const configErrorCatalog = {
  invalid: {
    code: "SS_CONFIG_INVALID",
    meaning: "One or more configuration values are missing or invalid; every problem is listed at once.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** Raised once at startup with every configuration problem found. */
export class ConfigError extends SharpsharpError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    const list = problems.map((problem) => `  - ${problem}`).join("\n");
    super(
      configErrorCatalog.invalid.code,
      `sharpsharp cannot start, the configuration has problems:\n${list}`,
    );
    this.problems = problems;
  }
}
