/**
 * Voice notes mixed with text, end to end: signed webhooks into the gateway (`sharpsharp start`
 * embedded, or an ingress and two workers on Redis), voice notes downloaded from the fake Graph API
 * and transcribed by the fake speech server with a 1–2 s latency, replies back at the fake Graph API.
 * Open loop: text messages at --text-rate per second and voice notes at --voice-per-minute, each from
 * a customer of its own (no coalescing: every message is answered). A baseline run first sends the
 * text alone at the same rate, so text turns' p99 with and without media work is compared in one run.
 * With --rounds N the pair is run N times, the order swapped every round (text only first, then mixed
 * first) so that drift over the session (a warmer page cache, a fuller Redis) favours neither side; the
 * verdict compares the medians of the rounds' p99s, and then the p99 of every text turn of all rounds
 * pooled by kind.
 * With --medium pdf the media are PDFs instead (a first page of --pdf-lines text runs, built by
 * heavyPdf, read by pdf.js), at the same --voice-per-minute: what reading documents does to text turns.
 * With --control each round also runs the mixed schedule with every voice note replaced by a text
 * message (its transcript, from a customer of its own): the same added load without media work, so a
 * rise in text p99 can be told apart as media's or as load's.
 * Prints per run: replies expected and received, missing, doubled, text and voice latency p50/p99
 * (webhook sent → the reply accepted by the fake Graph API), transcriptions, peak memory and CPU per
 * process, and the bench process's own event-loop delay (p99, max): the replies are timestamped by the
 * fake in this process, so a stall here would show as gateway latency.
 *
 *   node dist/bench/media/run.js [--mode embedded|redis|both] [--duration 300] [--baseline <duration>]
 *     [--rounds 1] [--control] [--text-rate 100] [--voice-per-minute 200] [--stt-latency 1000,2000]
 *     [--medium voice|pdf] [--pdf-lines 20000] [--interleave <window seconds>] [--dump <file prefix>]
 *
 * With --interleave W the comparison is made inside one run instead: one gateway, text at --text-rate
 * throughout, and voice notes only in every other W-second window (a warm-up window with both first, then
 * windows in the order off, on, on, off, … so a steady drift weighs on both sides alike), for 2 × --duration
 * seconds after the warm-up. Texts sent in a window's first seconds (the longest speech latency, plus
 * one) belong to neither side: the voice notes of the window before may still be in flight. The verdict
 * compares the p99 of the texts sent in windows without voice notes against those sent in windows with
 * them, and the medians of the windows' own p99s. Identical runs minutes apart differed by a third in
 * the gateway's CPU on this kind of machine, more than the 20% bound; windows seconds apart share that drift.
 * --dump writes each run's messages (kind, send time, reply times) to `<prefix>.<mode>.<kind>.jsonl` (kind:
 * text, mixed or control; a later round overwrites an earlier one), to look for what the slow replies have
 * in common (a stall, a voice note just sent or answered).
 *
 * Needs `npm run build`; Redis at --redis (default redis://127.0.0.1:6379) for --mode redis.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { build, type Histogram } from "hdr-histogram-js";
import { Redis } from "ioredis";
import { Pool } from "undici";
import { createFakeGraphApi, heavyPdf, mixedWebhook } from "../../src/dev/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger } from "../../src/observability/index.js";
import { deletePrefix } from "../e2e/delete-prefix.js";
import { watchGatewayLoopLag } from "../e2e/gateway-loop-lag.js";
import { type SharpsharpProcess, startProcess } from "../e2e/processes.js";
import { median } from "../ingress/compare-summary.js";

const { values } = parseArgs({
  options: {
    mode: { type: "string", default: "both" },
    duration: { type: "string", default: "300" },
    // The text-only run's length; default the mixed run's, since a longer window has a longer tail.
    baseline: { type: "string" },
    rounds: { type: "string", default: "1" },
    control: { type: "boolean", default: false },
    // Window length, s: voice notes on in every other window of one run (see above).
    interleave: { type: "string" },
    "text-rate": { type: "string", default: "100" },
    "voice-per-minute": { type: "string", default: "200" },
    "stt-latency": { type: "string", default: "1000,2000" },
    medium: { type: "string", default: "voice" },
    "pdf-lines": { type: "string", default: "20000" },
    redis: { type: "string", default: "redis://127.0.0.1:6379" },
    port: { type: "string", default: "3031" },
    // Writes every message's kind, send time and reply times as JSON lines (see above).
    dump: { type: "string" },
  },
});

const SECRET = "bench-media-secret";
const TOKEN = "bench-media-token";
const PHONE_NUMBER_ID = "106540352242922";
const VOICE = readFileSync(new URL("../../../test/fixtures/media/voice-note-pidgin.ogg", import.meta.url));
const PDFS = values.medium === "pdf";
if (!PDFS && values.medium !== "voice") throw new Error(`--medium is voice or pdf, not "${values.medium}"`);
/** The media the mixed runs send: the Pidgin voice note, or a PDF with a heavy first page. */
const MEDIUM = (() => {
  const bytes = PDFS ? heavyPdf(Number(values["pdf-lines"])) : VOICE;
  return {
    kind: PDFS ? ("document" as const) : ("audio" as const),
    bytes,
    mimeType: PDFS ? "application/pdf" : "audio/ogg; codecs=opus",
    sha256: createHash("sha256").update(bytes).digest("base64"),
  };
})();
/** What the runs' media are called in the output. */
const MEDIA = PDFS ? "PDFs" : "voice notes";
const TRANSCRIPT = "I transfer fifteen thousand naira since morning, my account never credit.";

interface Sent {
  readonly kind: "text" | "voice";
  readonly sentAt: number;
}

interface RunResult {
  readonly mode: string;
  readonly seconds: number;
  readonly text: number;
  readonly voice: number;
  readonly non200: number;
  readonly replies: number;
  readonly missing: number;
  readonly doubled: number;
  readonly textP50: number;
  readonly textP99: number;
  readonly voiceP50: number;
  readonly voiceP99: number;
  readonly transcriptions: number;
  readonly peakRssMiB: Record<string, number>;
  /** CPU used by each gateway process over the run, s. */
  readonly cpuSeconds: Record<string, number>;
  /** CPU used by the bench process itself (load, fake Graph API, fake speech server), s. */
  readonly benchCpuSeconds: number;
  /** The machine's idle share over the run, % of all cores. */
  readonly machineIdlePercent: number;
  /** The bench process's event-loop delay over the run, ms. */
  readonly benchLoopP99: number;
  readonly benchLoopMax: number;
  /** Each gateway process's own event-loop stalls over the run (max per 5 s window), ms. */
  readonly gatewayLoopLag: Record<string, { maxMs: number; windowsOver50Ms: number; windows: number }>;
  /** --interleave: the texts of windows without and with voice notes, and each window's own p99. */
  readonly interleaved?: Interleaved;
}

interface Interleaved {
  readonly windowSeconds: number;
  readonly off: { readonly count: number; readonly p50: number; readonly p99: number };
  readonly on: { readonly count: number; readonly p50: number; readonly p99: number };
  /** Each window after the warm-up, in order: whether it had voice notes, and its texts' p99, ms. */
  readonly windows: readonly { readonly on: boolean; readonly p99: number }[];
}

/** Text latencies of windows without (`off`) and with (`on`) voice notes. */
interface Sides {
  readonly off: Histogram;
  readonly on: Histogram;
}

/** Window k (0 is the warm-up, on neither side) has voice notes: off, on, on, off, repeated from window 1. */
function windowHasVoice(k: number): boolean {
  return k >= 1 && (k - 1) % 4 >= 1 && (k - 1) % 4 <= 2;
}

/**
 * Whether window k is sent voice notes: the measured windows that have them, and the warm-up, so that
 * the voice notes' code is as warm as the texts' when measuring starts (the first windows with voice
 * notes were otherwise the first to run it, cold, and only that side paid for it).
 */
function windowSendsVoice(k: number): boolean {
  return k === 0 || windowHasVoice(k);
}

/** The machine's CPU time so far, all cores, in clock ticks (the first line of /proc/stat). */
function machineCpuTicks(): { idle: number; total: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  // idle and iowait are the 4th and 5th fields.
  return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((sum, n) => sum + n, 0) };
}

const histogram = () =>
  build({ useWebAssembly: false, lowestDiscernibleValue: 1, highestTrackableValue: 600_000 });

async function runOnce(
  mode: "embedded" | "redis",
  seconds: number,
  voicePerMinute: number,
  voiceAsText: boolean,
  /** Takes every text turn's latency too, to pool the rounds of one kind. */
  pooledText: Histogram,
  /** --interleave: voice notes only in the windows windowHasVoice picks; each side's texts pooled too. */
  interleaved?: { readonly windowSeconds: number; readonly pooled: Sides },
): Promise<RunResult> {
  const prefix = `bench-media-${randomBytes(3).toString("hex")}`;
  const logger = createLogger({ level: "silent" });
  const graph = createFakeGraphApi({ logger }, { tokens: [TOKEN], limits: { throughput: { mps: 1000 } } });
  const graphUrl = await graph.listen({ host: "127.0.0.1", port: 0 });
  const [low, high] = (values["stt-latency"] ?? "1000,2000").split(",").map(Number) as [number, number];
  // In a process of its own: its work per voice note (parsing the upload, hashing the audio) would
  // otherwise delay this process's timestamps of the text replies.
  const stt = await startProcess("stt", "fake-stt", {}, "listening on", {
    helper: true,
    args: [
      "--port",
      "0",
      "--latency",
      low === high ? `${low}` : `${low}-${high}`,
      "--default-transcript",
      TRANSCRIPT,
    ],
  });
  const sttUrl = /listening on (http:\/\/\S+)/.exec(stt.output())?.[1] ?? "";
  const dataDir = mkdtempSync(join(tmpdir(), "bench-media-"));
  const env = {
    ...(mode === "embedded"
      ? { SHARPSHARP_DATA_DIR: dataDir }
      : { REDIS_URL: values.redis, REDIS_PREFIX: prefix }),
    GRAPH_API_BASE_URL: graphUrl,
    WHATSAPP_TOKEN: TOKEN,
    WHATSAPP_APP_SECRET: SECRET,
    WHATSAPP_VERIFY_TOKEN: "bench-verify",
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_THROUGHPUT_MPS: "1000",
    STT_BASE_URL: `${sttUrl}/v1`,
    COALESCE_WINDOW_MS: "0",
    COALESCE_MAX_MS: "0",
    HOST: "127.0.0.1",
    ADMIN_PORT: "0",
  };
  const processes: SharpsharpProcess[] = [];
  try {
    if (mode === "embedded") {
      processes.push(
        await startProcess("embedded", "start", { ...env, PORT: values.port }, "running embedded on"),
      );
    } else {
      processes.push(await startProcess("ingress", "ingress", { ...env, PORT: values.port }, "listening on"));
      for (const n of [1, 2]) {
        processes.push(
          await startProcess(`worker${n}`, "worker", { ...env, PORT: "0" }, "sharpsharp worker running"),
        );
      }
    }
    const pool = new Pool(`http://127.0.0.1:${values.port}`, { connections: 64, pipelining: 1 });
    const sent = new Map<string, Sent>();
    const cpuAtStart = new Map(processes.map((p) => [p.name, p.cpuSeconds() ?? 0]));
    const benchCpuAtStart = process.cpuUsage();
    const machineAtStart = machineCpuTicks();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const gatewayLag = watchGatewayLoopLag(processes);
    const inFlight: Promise<void>[] = [];
    let non200 = 0;
    let n = 0;
    const post = (kind: "text" | "voice") => {
      n += 1;
      const customer = `23481${String(n).padStart(8, "0")}`;
      const wamid = `wamid.media.${prefix}.${n}`;
      const timestamp = Math.floor(Date.now() / 1000);
      let body: Buffer;
      if (kind === "voice" && voiceAsText) {
        body = mixedWebhook([{ wamid, from: customer, timestamp, text: TRANSCRIPT }]);
      } else if (kind === "voice") {
        const mediaId = `${prefix}-${n}`;
        graph.addMedia(mediaId, { bytes: MEDIUM.bytes, mimeType: MEDIUM.mimeType });
        body = mixedWebhook([
          {
            kind: MEDIUM.kind,
            wamid,
            from: customer,
            timestamp,
            mediaId,
            mimeType: MEDIUM.mimeType,
            sha256: MEDIUM.sha256,
            ...(MEDIUM.kind === "document" ? { filename: "statement.pdf" } : {}),
          },
        ]);
      } else {
        body = mixedWebhook([{ wamid, from: customer, timestamp, text: "abeg my transfer never enter" }]);
      }
      sent.set(customer, { kind, sentAt: Date.now() });
      inFlight.push(
        pool
          .request({
            path: "/webhook",
            method: "POST",
            body,
            headers: {
              "content-type": "application/json",
              "x-hub-signature-256": signatureFor(body, SECRET),
            },
          })
          .then(async (response) => {
            await response.body.dump();
            if (response.statusCode !== 200) non200 += 1;
          })
          .catch(() => {
            non200 += 1;
          }),
      );
    };
    // One schedule of events, in time order: text at a fixed rate, voice notes at theirs.
    const textRate = Number(values["text-rate"]);
    const events: { at: number; kind: "text" | "voice" }[] = [];
    for (let i = 0; i < textRate * seconds; i += 1) events.push({ at: (i * 1000) / textRate, kind: "text" });
    const voices = Math.round((voicePerMinute * seconds) / 60);
    const windowMs = (interleaved?.windowSeconds ?? 0) * 1000;
    for (let i = 0; i < voices; i += 1) {
      const at = (i * 60_000) / voicePerMinute;
      if (windowMs === 0 || windowSendsVoice(Math.floor(at / windowMs))) events.push({ at, kind: "voice" });
    }
    events.sort((a, b) => a.at - b.at);
    const started = Date.now();
    for (const event of events) {
      const wait = started + event.at - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      post(event.kind);
    }
    await Promise.all(inFlight);
    const until = Date.now() + 60_000;
    while (graph.messages().length < sent.size && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000)); // late duplicates would show here
    loop.disable();
    const gatewayLoopLag = await gatewayLag.stop();
    const benchCpu = process.cpuUsage(benchCpuAtStart);
    const machine = machineCpuTicks();
    const machineIdlePercent =
      Math.round(((machine.idle - machineAtStart.idle) / (machine.total - machineAtStart.total)) * 1000) / 10;
    const peakRssMiB: Record<string, number> = {};
    const cpuSeconds: Record<string, number> = {};
    for (const p of processes) {
      peakRssMiB[p.name] = Math.round(p.peakRssMiB() ?? 0);
      cpuSeconds[p.name] = Math.round(((p.cpuSeconds() ?? 0) - (cpuAtStart.get(p.name) ?? 0)) * 10) / 10;
    }

    const byCustomer = new Map<string, number[]>();
    for (const message of graph.messages()) {
      const to = (message.to ?? "").replace(/^\+/, "");
      byCustomer.set(to, [...(byCustomer.get(to) ?? []), message.receivedAt]);
    }
    if (values.dump !== undefined) {
      const lines = [...sent].map(([customer, what]) =>
        JSON.stringify({ customer, ...what, replies: byCustomer.get(customer) ?? [] }),
      );
      writeFileSync(
        `${values.dump}.${mode}.${voicePerMinute === 0 ? "text" : voiceAsText ? "control" : "mixed"}.jsonl`,
        `${lines.join("\n")}\n`,
      );
    }
    const latency = { text: histogram(), voice: histogram() };
    let missing = 0;
    let doubled = 0;
    for (const [customer, what] of sent) {
      const replies = (byCustomer.get(customer) ?? []).sort((a, b) => a - b);
      if (replies.length === 0) missing += 1;
      doubled += Math.max(0, replies.length - 1);
      const first = replies[0];
      if (first === undefined) continue;
      latency[what.kind].recordValue(Math.max(1, first - what.sentAt));
      if (what.kind === "text") pooledText.recordValue(Math.max(1, first - what.sentAt));
    }
    await pool.close();
    const split =
      interleaved === undefined
        ? undefined
        : interleave(
            sent,
            byCustomer,
            started,
            windowMs,
            Math.ceil((seconds * 1000) / windowMs),
            high,
            interleaved.pooled,
          );
    return {
      mode,
      seconds,
      text: [...sent.values()].filter((s) => s.kind === "text").length,
      voice: [...sent.values()].filter((s) => s.kind === "voice").length,
      non200,
      replies: graph.messages().length,
      missing,
      doubled,
      textP50: latency.text.getValueAtPercentile(50),
      textP99: latency.text.getValueAtPercentile(99),
      voiceP50: latency.voice.getValueAtPercentile(50),
      voiceP99: latency.voice.getValueAtPercentile(99),
      transcriptions: await transcriptionsAt(sttUrl),
      peakRssMiB,
      cpuSeconds,
      benchCpuSeconds: Math.round((benchCpu.user + benchCpu.system) / 1e5) / 10,
      machineIdlePercent,
      benchLoopP99: Math.round(loop.percentile(99) / 1e5) / 10,
      benchLoopMax: Math.round(loop.max / 1e5) / 10,
      gatewayLoopLag,
      ...(split === undefined ? {} : { interleaved: split }),
    };
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    await graph.close();
    await stt.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (mode === "redis") {
      const redis = new Redis(values.redis);
      await deletePrefix(redis, prefix);
      redis.disconnect();
    }
  }
}

/**
 * Splits one interleaved run's text turns by window: those sent in windows with voice notes and those
 * sent in windows without, leaving out the warm-up window and each window's first seconds (while the
 * voice notes of the window before, up to the longest speech latency, may still be in flight).
 */
function interleave(
  sent: ReadonlyMap<string, Sent>,
  byCustomer: ReadonlyMap<string, number[]>,
  started: number,
  windowMs: number,
  windowCount: number,
  longestSpeechMs: number,
  pooled: Sides,
): Interleaved {
  const settleMs = longestSpeechMs + 1000;
  const side: Sides = { off: histogram(), on: histogram() };
  const perWindow = Array.from({ length: windowCount }, () => histogram());
  for (const [customer, what] of sent) {
    if (what.kind !== "text") continue;
    const first = Math.min(...(byCustomer.get(customer) ?? []));
    if (!Number.isFinite(first)) continue;
    const offset = what.sentAt - started;
    const k = Math.floor(offset / windowMs);
    if (k < 1 || k >= windowCount || offset - k * windowMs < settleMs) continue;
    const latency = Math.max(1, first - what.sentAt);
    const on = windowHasVoice(k) ? "on" : "off";
    side[on].recordValue(latency);
    pooled[on].recordValue(latency);
    perWindow[k]?.recordValue(latency);
  }
  const summary = (h: Histogram) => ({
    count: h.totalCount,
    p50: h.getValueAtPercentile(50),
    p99: h.getValueAtPercentile(99),
  });
  return {
    windowSeconds: windowMs / 1000,
    off: summary(side.off),
    on: summary(side.on),
    windows: perWindow
      .slice(1)
      .map((h, i) => ({ on: windowHasVoice(i + 1), p99: h.getValueAtPercentile(99) })),
  };
}

/** The transcription calls the fake speech server took. */
async function transcriptionsAt(sttUrl: string): Promise<number> {
  const response = await fetch(`${sttUrl}/_fake/requests`);
  const records = (await response.json()) as { readonly path?: string }[];
  return records.filter((record) => record.path?.includes("transcriptions") === true).length;
}

function report(kind: string, r: RunResult) {
  const label = kind.replace("voice notes", MEDIA);
  process.stdout.write(
    `${r.mode} ${label} (${r.seconds} s): ${r.text} text + ${r.voice} ${MEDIA}, non-200 ${r.non200}; ` +
      `replies ${r.replies}, missing ${r.missing}, doubled ${r.doubled}; text p50 ${r.textP50} ms p99 ${r.textP99} ms; ` +
      `${PDFS ? "PDF" : "voice note"} p50 ${r.voiceP50} ms p99 ${r.voiceP99} ms; transcriptions ${r.transcriptions}; ` +
      `peak RSS MiB ${JSON.stringify(r.peakRssMiB)}; CPU s ${JSON.stringify(r.cpuSeconds)}; ` +
      `bench CPU ${r.benchCpuSeconds} s; machine idle ${r.machineIdlePercent}%; bench event loop p99 ${r.benchLoopP99} ms max ${r.benchLoopMax} ms; ` +
      `gateway event-loop stalls (worst 5 s window, windows over 50 ms) ${JSON.stringify(r.gatewayLoopLag)}\n${JSON.stringify({ label, ...r })}\n`,
  );
}

const modes =
  values.mode === "both" ? (["embedded", "redis"] as const) : ([values.mode] as ["embedded" | "redis"]);
const rounds = Math.max(1, Number(values.rounds));
const pct = (from: number, to: number) => (from === 0 ? "0" : (((to - from) / from) * 100).toFixed(0));

/** --interleave: one run per round, voice notes on in half its windows; the verdict within each run. */
async function interleavedRounds(mode: "embedded" | "redis", windowSeconds: number) {
  // --duration seconds of voice notes: twice that in windows, a multiple of four (off, on, on, off).
  const windows = Math.max(4, Math.ceil((2 * Number(values.duration)) / windowSeconds / 4) * 4);
  const seconds = windowSeconds * (windows + 1);
  const pooled: Sides = { off: histogram(), on: histogram() };
  const windowP99 = { off: [] as number[], on: [] as number[] };
  for (let round = 1; round <= rounds; round += 1) {
    const result = await runOnce(mode, seconds, Number(values["voice-per-minute"]), false, histogram(), {
      windowSeconds,
      pooled,
    });
    report(rounds === 1 ? "interleaved" : `interleaved, round ${round}`, result);
    const split = result.interleaved;
    if (split === undefined) continue;
    for (const w of split.windows) windowP99[w.on ? "on" : "off"].push(w.p99);
    process.stdout.write(
      `${mode} round ${round}: text p99 in windows without ${MEDIA} ${split.off.p99} ms (p50 ${split.off.p50}, ` +
        `${split.off.count} texts), with ${MEDIA} ${split.on.p99} ms (p50 ${split.on.p50}, ${split.on.count} texts): ` +
        `${pct(split.off.p99, split.on.p99)}%; each window's p99 in order ` +
        `${split.windows.map((w) => `${w.on ? "+" : "-"}${w.p99}`).join(" ")}\n`,
    );
  }
  const offMedian = median(windowP99.off);
  const onMedian = median(windowP99.on);
  process.stdout.write(
    `${mode}: medians of the windows' text p99s, without → with ${MEDIA}: ${offMedian} → ${onMedian} ms (${pct(offMedian, onMedian)}%)\n`,
  );
  if (rounds > 1) {
    const off = pooled.off.getValueAtPercentile(99);
    const on = pooled.on.getValueAtPercentile(99);
    process.stdout.write(
      `${mode}: all ${rounds} rounds' texts together, without → with ${MEDIA}: p99 ${off} → ${on} ms (${pct(off, on)}%; ` +
        `${pooled.off.totalCount} and ${pooled.on.totalCount} texts)\n`,
    );
  }
}

for (const mode of modes) {
  if (values.interleave !== undefined) {
    await interleavedRounds(mode, Number(values.interleave));
    continue;
  }
  const textOnly: number[] = [];
  const mixed: number[] = [];
  const control: number[] = [];
  const pooled = {
    "text only": histogram(),
    "with voice notes": histogram(),
    "voice notes sent as text": histogram(),
  };
  const kinds = values.control
    ? (["text only", "with voice notes", "voice notes sent as text"] as const)
    : (["text only", "with voice notes"] as const);
  for (let round = 1; round <= rounds; round += 1) {
    const order = round % 2 === 1 ? [...kinds] : [...kinds].reverse();
    for (const label of order) {
      const voicePerMinute = Number(values["voice-per-minute"]);
      const result =
        label === "text only"
          ? await runOnce(mode, Number(values.baseline ?? values.duration), 0, false, pooled[label])
          : await runOnce(
              mode,
              Number(values.duration),
              voicePerMinute,
              label === "voice notes sent as text",
              pooled[label],
            );
      report(rounds === 1 ? label : `${label}, round ${round}`, result);
      (label === "text only" ? textOnly : label === "with voice notes" ? mixed : control).push(
        result.textP99,
      );
    }
  }
  const before = median(textOnly);
  const after = median(mixed);
  const change = before === 0 ? 0 : (after - before) / before;
  process.stdout.write(
    `${mode}: text p99 ${before} → ${after} ms (${(change * 100).toFixed(0)}%)` +
      `${rounds === 1 ? "" : `, medians of ${rounds} rounds (text only ${textOnly.join(", ")}; with ${MEDIA} ${mixed.join(", ")})`}\n`,
  );
  if (rounds > 1) {
    // One p99 over every text turn of a kind, all rounds together: steadier than a median of
    // a few rounds' p99s, each of which a single slow second can move.
    const all = pooled["text only"].getValueAtPercentile(99);
    const allMixed = pooled["with voice notes"].getValueAtPercentile(99);
    process.stdout.write(
      `${mode}: all ${rounds} rounds' text turns together: p99 ${all} → ${allMixed} ms (${all === 0 ? 0 : (((allMixed - all) / all) * 100).toFixed(0)}%; ` +
        `${pooled["text only"].totalCount} and ${pooled["with voice notes"].totalCount} text turns)\n`,
    );
  }
  if (control.length > 0) {
    const same = median(control);
    process.stdout.write(
      `${mode}: control, the voice notes sent as text: text p99 ${before} → ${same} ms (${before === 0 ? 0 : (((same - before) / before) * 100).toFixed(0)}%; ${control.join(", ")})\n`,
    );
  }
}
