// A real browser for tests of the console: Debian's Chromium (/usr/bin/chromium; .ci/run installs it),
// driven by playwright-core, headless, with a fresh profile that is removed on close. Tests that need
// it skip when `browserAvailable` is false (a developer's machine without the package).
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";

export const browserAvailable = existsSync(CHROMIUM_PATH);

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface LaunchOptions {
  /** Default 1280×800. */
  readonly viewport?: { readonly width: number; readonly height: number };
  /** Where relative `page.goto` URLs resolve. */
  readonly baseURL?: string;
}

/**
 * Chromium with its own temporary profile. Close the returned context (`await context.close()`)
 * to end the browser and remove the profile.
 */
export async function launchBrowser(options: LaunchOptions = {}): Promise<BrowserContext> {
  const userDataDir = await mkdtemp(join(tmpdir(), "sharpsharp-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: options.viewport ?? { width: 1280, height: 800 },
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  const close = context.close.bind(context);
  context.close = async (closeOptions) => {
    try {
      await close(closeOptions);
    } finally {
      await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
    }
  };
  return context;
}
