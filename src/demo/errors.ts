import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const demoErrorCatalog = {
  state: {
    code: "SS_DEMO_STATE",
    meaning:
      "The demo's file (demo.json in SHARPSHARP_DATA_DIR) cannot be read or written, or is not the demo's format.",
  },
  notRunning: {
    code: "SS_DEMO_NOT_RUNNING",
    meaning:
      "`sharpsharp simulate` found no gateway or fake Graph API to talk to: no demo.json, or nothing answers at its URLs.",
  },
  rejected: {
    code: "SS_DEMO_REJECTED",
    meaning: "`sharpsharp simulate` posted its webhook and the gateway answered something other than 200.",
  },
  noReply: {
    code: "SS_DEMO_NO_REPLY",
    meaning: "`sharpsharp simulate` saw no reply to its message on the fake Graph API within the timeout.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

type DemoErrorKind = keyof typeof demoErrorCatalog;

/** A demo or simulate failure; `kind` says which (see demoErrorCatalog), the message what to do. */
export class DemoError extends SharpsharpError {
  readonly kind: DemoErrorKind;

  constructor(kind: DemoErrorKind, message: string, cause?: unknown) {
    super(demoErrorCatalog[kind].code, message, cause === undefined ? {} : { cause });
    this.kind = kind;
  }
}
