/**
 * What sending a picture to the model costs the event loop: LLM calls carrying a --image-mb picture as a
 * data URL, against the fake LLM in a process of its own, once through sharpsharp's client and once
 * straight through the `openai` client's `chat.completions.create` (what ours wraps), alternating call by
 * call in one run. Prints, for each, the event loop's busy time per call (p50, p90, max) and its longest
 * stall during a call: the longest any other conversation of the process waited behind it.
 *
 *   node dist/bench/agent/image-body.js [--calls 40] [--image-mb 5]
 *
 * Needs `npm run build`.
 */
import { randomBytes } from "node:crypto";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import OpenAI from "openai";
import { createOpenAiChatClient } from "../../src/agent/index.js";
import { imageDataUrl } from "../../src/vision/index.js";
import { startProcess } from "../e2e/processes.js";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "40" },
    "image-mb": { type: "string", default: "5" },
  },
});

const calls = Math.max(2, Number(values.calls));
// A PNG signature, then noise: the fake checks the signature, and noise does not compress.
const picture = Buffer.concat([
  Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
  randomBytes(Math.round(Number(values["image-mb"]) * 1024 * 1024) - 16),
]);
const url = imageDataUrl(picture, "image/png");
const question = "Read this transfer receipt: amount, date, bank, reference.";

const llm = await startProcess("llm", "fake-llm", {}, "listening on", {
  helper: true,
  args: ["--port", "0"],
});
const baseUrl = `${/listening on (http:\/\/\S+)/.exec(llm.output())?.[1] ?? ""}/v1`;

const ours = createOpenAiChatClient({
  baseUrl,
  apiKey: "k",
  model: "gpt-4o-mini",
  timeoutMs: 60_000,
  provider: "p",
});
const sdk = new OpenAI({ baseURL: baseUrl, apiKey: "k", maxRetries: 0, timeout: 60_000 });

const paths = {
  sharpsharp: () =>
    ours.complete(
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: question },
              { type: "image_url", image_url: { url } },
            ],
          },
        ],
        tools: [],
      },
      AbortSignal.timeout(60_000),
    ),
  "openai create": () =>
    sdk.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: question },
            { type: "image_url", image_url: { url } },
          ],
        },
      ],
    }),
};
type PathName = keyof typeof paths;

const busyMs: Record<PathName, number[]> = { sharpsharp: [], "openai create": [] };
const stallMs: Record<PathName, number[]> = { sharpsharp: [], "openai create": [] };
try {
  // One warm-up call each, then alternating, so drift on the machine weighs on both alike.
  for (const name of Object.keys(paths) as PathName[]) await paths[name]();
  for (let i = 0; i < calls; i += 1) {
    for (const name of (i % 2 === 0
      ? ["sharpsharp", "openai create"]
      : ["openai create", "sharpsharp"]) as PathName[]) {
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      const before = performance.eventLoopUtilization();
      await paths[name]();
      const used = performance.eventLoopUtilization(before);
      loop.disable();
      busyMs[name].push(used.active);
      stallMs[name].push(loop.max / 1e6);
    }
  }
} finally {
  await llm.stop();
}

const at = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const ms = (n: number) => n.toFixed(1);
process.stdout.write(
  `${calls} calls each, a ${values["image-mb"]} MB picture (${(url.length / 1048576).toFixed(1)} MiB data URL), alternating\n`,
);
for (const name of Object.keys(paths) as PathName[]) {
  const busy = [...busyMs[name]].sort((a, b) => a - b);
  const stall = [...stallMs[name]].sort((a, b) => a - b);
  process.stdout.write(
    `${name}: event loop busy per call p50 ${ms(at(busy, 0.5))} ms, p90 ${ms(at(busy, 0.9))} ms, max ${ms(at(busy, 1))} ms; ` +
      `longest stall per call p50 ${ms(at(stall, 0.5))} ms, max ${ms(at(stall, 1))} ms\n`,
  );
}
