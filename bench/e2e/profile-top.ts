/**
 * Prints the top self-time entries of a V8 CPU profile (`node --cpu-prof`), e.g. the gateway's under
 * `BENCH_GATEWAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" node dist/bench/e2e/run.js ...`:
 *
 *   node dist/bench/e2e/profile-top.js /tmp/prof/CPU.*.cpuprofile [--top 30]
 */
import { parseArgs } from "node:util";
import { readCpuProfile } from "./cpu-profile.js";

const { values, positionals } = parseArgs({
  options: { top: { type: "string", default: "30" } },
  allowPositionals: true,
});

for (const file of positionals) {
  const profile = readCpuProfile(file);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    totalUs += delta;
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) return;
    const where = frame.url.replace(/^.*\/(node_modules|dist)\//, "$1/");
    const name = `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
    selfUs.set(name, (selfUs.get(name) ?? 0) + delta);
  });
  process.stdout.write(`${file}: ${(totalUs / 1e6).toFixed(1)} s sampled\n`);
  const rows = [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
  for (const [name, us] of rows) {
    process.stdout.write(
      `${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}\n`,
    );
  }
}
