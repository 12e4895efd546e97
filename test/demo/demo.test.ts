import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { type RunningDemo, readDemoState, runSimulateCommand, startDemo } from "../../src/demo/index.js";
import { createLogger } from "../../src/observability/index.js";
import { DEFAULT_RESPONDER_SETTINGS } from "../../src/router/index.js";
import { type DemoBackend, demoBackend, skipWithoutDemoBackend } from "../support/demo-backend.js";
import { eventually } from "../support/eventually.js";

const bin = fileURLToPath(new URL("../../bin/sharpsharp.js", import.meta.url));
const PIDGIN_VOICE_NOTE = fileURLToPath(new URL("../fixtures/media/voice-note-pidgin.ogg", import.meta.url));
/** The worker's answer to a voice note it cannot hear (see test/media/voice-notes.test.ts). */
const PLEASE_TYPE = /voice notes/i;
/** "hi" is too short to tell a language: the tenant's first language (default Pidgin) answers. */
const GREETING = DEFAULT_RESPONDER_SETTINGS.replies.greeting.text.pcm;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ss-demo-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function backend(label: string): DemoBackend {
  const chosen = demoBackend(label);
  cleanups.push(() => chosen.cleanup());
  return chosen;
}

async function demo(
  dataDir: string,
  chosen: DemoBackend,
): Promise<{ running: RunningDemo; printed: string }> {
  let printed = "";
  const running = await startDemo({
    // No coalescing wait, so each simulate is answered in well under a second.
    env: {
      PORT: "0",
      ADMIN_PORT: "0",
      SHARPSHARP_DATA_DIR: dataDir,
      COALESCE_WINDOW_MS: "0",
      COALESCE_MAX_MS: "0",
      ...chosen.env,
    },
    cwd: dataDir,
    print: (text) => {
      printed += text;
    },
    logger: createLogger({ level: "silent" }),
  });
  return { running, printed };
}

/** runSimulateCommand as `sharpsharp simulate` runs it, with SHARPSHARP_DATA_DIR as the only variable. */
async function simulateIn(dataDir: string, args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runSimulateCommand(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    config: () => loadConfig({ env: { SHARPSHARP_DATA_DIR: dataDir }, cwd: dataDir, requireTenants: false }),
  });
  return { code, stdout, stderr };
}

/** The built CLI, with only PATH and `env` in its environment. */
function cli(args: string[], env: Record<string, string>, cwd: string) {
  let stdout = "";
  let stderr = "";
  const child = spawn(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

describe.skipIf(skipWithoutDemoBackend)("the demo (npm start with no configuration) and simulate", () => {
  it("answers a greeting from the router and anything else through the fake LLM", async () => {
    const dataDir = tempDataDir();
    const { running } = await demo(dataDir, backend("demo-replies"));
    cleanups.push(() => running.close());

    const hi = await simulateIn(dataDir, ["hi"]);
    expect(hi.stderr).toBe("");
    expect(hi.code).toBe(0);
    expect(hi.stdout).toContain(GREETING);
    expect(hi.stdout).toContain("[Talk to a person]");

    const transfer = await simulateIn(dataDir, ["abeg my transfer never enter", "--from", "2348090000777"]);
    expect(transfer.code).toBe(0);
    expect(transfer.stdout).toContain("Sorry about that wahala o!");

    const other = await simulateIn(dataDir, ["una dey sell shoes?", "--from", "2348090000778"]);
    expect(other.code).toBe(0);
    expect(other.stdout).toContain('I don see your message: "una dey sell shoes?"');
  });

  it("hears a voice note (simulate --voice): the fake speech server transcribes it, the reply comes from the transcript", async () => {
    const dataDir = tempDataDir();
    const { running, printed } = await demo(dataDir, backend("demo-voice"));
    cleanups.push(() => running.close());
    expect(printed).toContain("npx sharpsharp simulate --voice test/fixtures/media/voice-note-pidgin.ogg");
    const sttUrl = running.state.running?.sttUrl;
    expect(sttUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(readDemoState(dataDir)?.running?.sttUrl).toBe(sttUrl);

    const voice = await simulateIn(dataDir, ["--voice", PIDGIN_VOICE_NOTE, "--from", "2348090000779"]);
    expect(voice.stderr).toBe("");
    expect(voice.code).toBe(0);
    expect(voice.stdout).toContain("voice note: voice-note-pidgin.ogg");
    expect(voice.stdout).not.toMatch(PLEASE_TYPE);
    // "…my account never credit…": the fake LLM's transfer rule, so the transcript reached the agent.
    expect(voice.stdout).toContain("Sorry about that wahala o!");

    const requests = (await (
      await fetch(`${(sttUrl as string).replace(/\/v1$/, "")}/_fake/requests`)
    ).json()) as { kind: string; match?: string; sha256?: string }[];
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      kind: "transcription",
      match: "sha256",
      sha256: "3f977de7ffabe3c3cfdd51537951c7ed6c62d8ffd044931cb73a6c3d09f97b77",
    });
  });

  it("makes its secrets once, keeps them 0600, prints them only on the first start", async () => {
    const dataDir = tempDataDir();
    const chosen = backend("demo-secrets");
    const first = await demo(dataDir, chosen);
    await first.running.close();
    const { secrets } = first.running.state;
    expect(first.running.created).toBe(true);
    expect(first.printed).toContain(`WHATSAPP_APP_SECRET=${secrets.appSecret}`);
    expect(first.printed).toContain(`WHATSAPP_TOKEN=${secrets.graphToken}`);
    expect(first.printed).toContain('npx sharpsharp simulate "abeg my transfer never enter"');
    expect(statSync(first.running.file).mode & 0o777).toBe(0o600);

    const second = await demo(dataDir, chosen);
    cleanups.push(() => second.running.close());
    expect(second.running.created).toBe(false);
    expect(second.running.state.secrets).toEqual(secrets);
    for (const secret of Object.values(secrets)) expect(second.printed).not.toContain(secret);
    expect(second.printed).toContain(`Demo secrets: kept in ${second.running.file}`);
    expect(statSync(second.running.file).mode & 0o777).toBe(0o600);
    expect(readDemoState(dataDir)?.running?.webhookUrl).toBe(second.running.webhookUrl);

    // The built CLI finds the running demo through demo.json alone.
    const run = cli(["simulate", "hi", "--from", "2348090000321"], { SHARPSHARP_DATA_DIR: dataDir }, dataDir);
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toContain(GREETING);
  });

  it("leaves no demo.json when it cannot start (port taken), so the next start shows fresh secrets", async () => {
    const dataDir = tempDataDir();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const { port } = blocker.address() as AddressInfo;
    const chosen = backend("demo-port-taken");
    await expect(
      startDemo({
        env: { PORT: String(port), ADMIN_PORT: "0", SHARPSHARP_DATA_DIR: dataDir, ...chosen.env },
        cwd: dataDir,
        print: () => {},
        logger: createLogger({ level: "silent" }),
      }),
    ).rejects.toThrow(/EADDRINUSE|address already in use/);
    expect(readDemoState(dataDir)).toBeUndefined();
  });

  it("starts from the built CLI's `start` with nothing WhatsApp set, and stops on SIGTERM", async () => {
    const dataDir = tempDataDir();
    const chosen = backend("demo-cli");
    const env = {
      PORT: "0",
      ADMIN_PORT: "0",
      SHARPSHARP_DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      ...chosen.env,
    };
    const start = cli(["start"], env, dataDir);
    cleanups.push(() => {
      if (start.child.exitCode === null) start.child.kill("SIGKILL");
    });
    await eventually(() => /Webhook\s+http:\/\/127\.0\.0\.1:\d+\/webhook/.test(start.stdout()), 15_000);
    expect(start.stdout()).toContain("WHATSAPP_APP_SECRET=");

    const reply = await simulateIn(dataDir, ["abeg my transfer never enter"]);
    expect(reply.code).toBe(0);
    expect(reply.stdout).toContain("Sorry about that wahala o!");

    start.child.kill("SIGTERM");
    expect(await start.exited, start.stderr() + start.stdout()).toBe(0);
  }, 30_000);
});

describe("simulate without a running demo", () => {
  it("says there is no demo and how to start one (exit 1)", async () => {
    const dataDir = tempDataDir();
    const run = cli(["simulate", "hi"], { SHARPSHARP_DATA_DIR: dataDir }, dataDir);
    expect(await run.exited).toBe(1);
    expect(run.stdout()).toBe("");
    expect(run.stderr()).toMatch(/no demo found \(.*demo\.json does not exist\): start it with `npm start`/);
  });

  it.skipIf(skipWithoutDemoBackend)("says nothing answers when the demo has stopped (exit 1)", async () => {
    const dataDir = tempDataDir();
    const { running } = await demo(dataDir, backend("demo-stopped"));
    await running.close();
    const result = await simulateIn(dataDir, ["hi"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/nothing answers at http:\/\/127\.0\.0\.1:\d+.*is the demo running\?/);
  });

  it("refuses bad flags with the usage (exit 2)", async () => {
    const result = await simulateIn(tempDataDir(), ["--from", "+234"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("the message is missing");
    expect(result.stderr).toContain("Usage: sharpsharp simulate");
  });
});
