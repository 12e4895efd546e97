import { randomBytes as cryptoRandomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { DemoError } from "./errors.js";

/** The demo's business number: the fake Graph API's default, so its records and webhooks agree. */
export const DEMO_PHONE_NUMBER_ID = "106540352242922";

/** The file, in SHARPSHARP_DATA_DIR, that holds the demo's secrets and where its servers listen. */
export const DEMO_FILE_NAME = "demo.json";

const secretsSchema = z.strictObject({
  appSecret: z.string().min(16),
  verifyToken: z.string().min(16),
  graphToken: z.string().min(16),
  /** The console's demo operator (admin@demo.local); absent in files from before the console. */
  consolePassword: z.string().min(10).optional(),
});

const runningSchema = z.strictObject({
  /** Where `simulate` posts: the gateway's /webhook, on loopback. */
  webhookUrl: z.string(),
  /** The fake Graph API's base URL (its /_fake control routes show what the bot sent). */
  graphUrl: z.string(),
  /** The fake LLM's base URL, with /v1. */
  llmUrl: z.string(),
  /** The fake speech server's base URL, with /v1; absent in files from before voice notes. */
  sttUrl: z.string().optional(),
  ports: z.strictObject({
    gateway: z.number(),
    graph: z.number(),
    llm: z.number(),
    /** Absent in files from before voice notes. */
    stt: z.number().optional(),
  }),
  startedAt: z.string(),
});

const demoStateSchema = z.strictObject({
  version: z.literal(1),
  createdAt: z.string(),
  phoneNumberId: z.string(),
  secrets: secretsSchema,
  /** Absent until a demo has started once. */
  running: runningSchema.optional(),
});

export type DemoSecrets = z.infer<typeof secretsSchema>;
export type DemoRunning = z.infer<typeof runningSchema>;
export type DemoState = z.infer<typeof demoStateSchema>;

export function demoFilePath(dataDir: string): string {
  return resolve(join(dataDir, DEMO_FILE_NAME));
}

/** The demo's file, or undefined when there is none; a file that is not the demo's is a DemoError. */
export function readDemoState(dataDir: string): DemoState | undefined {
  const path = demoFilePath(dataDir);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DemoError("state", `cannot read ${path} (${(error as NodeJS.ErrnoException).code})`, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DemoError("state", `${path} is not JSON: delete it and start the demo again for new secrets`);
  }
  const parsed = demoStateSchema.safeParse(json);
  if (!parsed.success) {
    // Only field paths, never values: the file holds secrets.
    const fields = parsed.error.issues.map((issue) => issue.path.join(".") || "(top level)").join(", ");
    throw new DemoError(
      "state",
      `${path} is not a demo file (${fields}): delete it and start the demo again for new secrets`,
    );
  }
  return parsed.data;
}

/**
 * Writes the demo's file readable by its owner only (0600): written to a
 * temporary file with that mode and renamed, so no reader ever sees it half
 * written or with wider permissions.
 */
export function writeDemoState(dataDir: string, state: DemoState): void {
  const path = demoFilePath(dataDir);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(resolve(dataDir), { recursive: true });
    writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    // The mode given to writeFileSync is filtered by the umask; 0600 is what we promise.
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (error) {
    throw new DemoError(
      "state",
      `cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ` +
        "set SHARPSHARP_DATA_DIR to a writable directory",
      error,
    );
  }
}

export interface DemoStateDeps {
  /** Source of the secrets' bytes; default node:crypto randomBytes. */
  readonly randomBytes?: (size: number) => Buffer;
  /** ms since the epoch. */
  readonly now?: () => number;
}

/**
 * The demo's state: read from `<dataDir>/demo.json`, or made with fresh
 * secrets when there is none (`created`). Nothing is written here: the
 * caller writes the state once the demo runs, so a start that fails leaves
 * no file behind, and the secrets are shown on the first start that works.
 */
export function loadOrCreateDemoState(
  dataDir: string,
  deps: DemoStateDeps = {},
): { readonly state: DemoState; readonly created: boolean } {
  const existing = readDemoState(dataDir);
  if (existing !== undefined) return { state: existing, created: false };
  const random = deps.randomBytes ?? cryptoRandomBytes;
  const state: DemoState = {
    version: 1,
    createdAt: new Date((deps.now ?? Date.now)()).toISOString(),
    phoneNumberId: DEMO_PHONE_NUMBER_ID,
    secrets: {
      // Meta's app secrets are 32 hex digits; the other two are opaque strings.
      appSecret: random(16).toString("hex"),
      verifyToken: `demo-verify-${random(12).toString("base64url")}`,
      graphToken: `demo-graph-${random(24).toString("base64url")}`,
      consolePassword: random(14).toString("base64url").slice(0, 18),
    },
  };
  return { state, created: true };
}
