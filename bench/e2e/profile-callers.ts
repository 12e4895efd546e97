/**
 * Where one hot function is called from: attributes the samples in which `--fn` (e.g. writeUtf8String,
 * a socket write) was on top of the stack to the nearest frames of the project's own code or of bullmq,
 * so "21% in socket writes" becomes "this many from the journal, this many from the send order". Reads a
 * V8 CPU profile (`node --cpu-prof`, e.g. under BENCH_GATEWAY_NODE_ARGS of bench/e2e/run.js).
 *
 *   node dist/bench/e2e/profile-callers.js /tmp/prof/CPU.*.cpuprofile --fn writeUtf8String [--depth 2] [--top 25]
 */
import { parseArgs } from "node:util";
import { type ProfileNode, readCpuProfile } from "./cpu-profile.js";

const { values, positionals } = parseArgs({
  options: {
    fn: { type: "string" },
    depth: { type: "string", default: "2" },
    top: { type: "string", default: "25" },
  },
  allowPositionals: true,
});
if (values.fn === undefined || positionals.length === 0) {
  process.stderr.write(
    "usage: profile-callers.js <profile.cpuprofile>... --fn <function name> [--depth 2] [--top 25]\n",
  );
  process.exit(2);
}
const depth = Number(values.depth);

/** A frame of ours (dist/) or of bullmq, shortened to function@folder/file:line; else undefined. */
function ownFrame(node: ProfileNode): string | undefined {
  const { functionName, url, lineNumber } = node.callFrame;
  const path = url.replace(/.*node_modules\//, "").replace(/.*\/dist\//, "dist/");
  if (!path.startsWith("dist/") && !path.startsWith("bullmq/")) return undefined;
  return `${functionName || "(anonymous)"}@${path.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
}

for (const file of positionals) {
  const profile = readCpuProfile(file);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const samplesOf = new Map<number, number>();
  for (const id of profile.samples) samplesOf.set(id, (samplesOf.get(id) ?? 0) + 1);

  const byCaller = new Map<string, number>();
  let total = 0;
  for (const [id, count] of samplesOf) {
    if (byId.get(id)?.callFrame.functionName !== values.fn) continue;
    total += count;
    const chain: string[] = [];
    for (let up = parentOf.get(id); up !== undefined && chain.length < depth; up = parentOf.get(up)) {
      const frame = ownFrame(byId.get(up) as ProfileNode);
      if (frame !== undefined) chain.push(frame);
    }
    const key = chain.length === 0 ? "(no frame of ours)" : chain.join(" < ");
    byCaller.set(key, (byCaller.get(key) ?? 0) + count);
  }
  const share = ((100 * total) / Math.max(1, profile.samples.length)).toFixed(1);
  process.stdout.write(
    `${file}: ${values.fn} in ${total} of ${profile.samples.length} samples (${share}%), by caller:\n`,
  );
  const rows = [...byCaller].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
  for (const [caller, count] of rows) {
    process.stdout.write(`${((100 * count) / Math.max(1, total)).toFixed(1).padStart(6)}%  ${caller}\n`);
  }
}
