import { readFileSync } from "node:fs";
import { createFakeStt, type FakeStt, type FakeSttDeps, type FakeSttOptions } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";

export interface RunningFakeStt {
  readonly fake: FakeStt;
  /** Base URL, without `/v1`. */
  readonly url: string;
}

/** A key shaped like OpenAI's, so the masked echo of a wrong one is key-like too. */
export const STT_KEY = "sk-test-speech-0123456789abcdef";

/** The voice-note fixtures (test/fixtures/media/README.md). */
export const VOICE_NOTES = {
  en: {
    file: "voice-note-en.ogg",
    sha256: "43c03a1a72b012e40d42fdf58ee21bba03fa0d94eb7a2434b4ee1edf15faf14c",
    text: "I transferred fifteen thousand naira this morning, but my account has not been credited.",
  },
  pidgin: {
    file: "voice-note-pidgin.ogg",
    sha256: "3f977de7ffabe3c3cfdd51537951c7ed6c62d8ffd044931cb73a6c3d09f97b77",
    text: "I transfer fifteen thousand naira since morning, my account never credit. Abeg, wetin dey happen to my order?",
  },
} as const;

export function readVoiceNote(name: keyof typeof VOICE_NOTES): Buffer {
  return readFileSync(new URL(`../fixtures/media/${VOICE_NOTES[name].file}`, import.meta.url));
}

/** `createFakeStt` listening on 127.0.0.1 for one test file: every fake it starts is closed after each test. */
export function trackFakeStts(afterEachHook: (fn: () => Promise<void>) => void) {
  const running: FakeStt[] = [];
  afterEachHook(async () => {
    await Promise.all(running.splice(0).map((fake) => fake.close()));
  });
  return async (options: FakeSttOptions = {}, deps: Partial<FakeSttDeps> = {}): Promise<RunningFakeStt> => {
    const fake = createFakeStt({ logger: createLogger({ level: "silent" }), ...deps }, options);
    running.push(fake);
    return { fake, url: await fake.listen() };
  };
}
