/**
 * What one append to an embedded conversation history costs once the conversation is long: C
 * conversations are filled to their 50 kept entries, then each gets one more entry per round, one
 * transaction per append as a turn writes it. Prints µs of CPU and bytes of WAL per append (no
 * checkpoint runs during the measurement, so the WAL only grows).
 *
 * Point --dist at another build (a copy of dist/ from before a change) to compare, alternating:
 *
 *   node dist/bench/conversation/history-append.js [--dist dist] [--conversations 500] [--rounds 10]
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    dist: { type: "string", default: "dist" },
    conversations: { type: "string", default: "500" },
    rounds: { type: "string", default: "10" },
  },
});
const dist = resolve(values.dist);
const conversations = Number(values.conversations);
const rounds = Number(values.rounds);
const load = (path: string) => import(pathToFileURL(`${dist}/${path}`).href);

const { openSqliteDatabase } = await load("src/sqlite/index.js");
const { createSqliteConversationState } = await load("src/conversation/embedded/index.js");

const dataDir = mkdtempSync(join(tmpdir(), "bench-history-"));
// No checkpoint while measuring: the WAL's growth is what the appends wrote.
const db = openSqliteDatabase({ dataDir, checkpointMs: 3_600_000 });
const state = createSqliteConversationState({ db });
const walBytes = () => statSync(join(dataDir, "sharpsharp.db-wal")).size;
const entry = (n: number) => ({
  at: n,
  from: n % 2 === 0 ? "customer" : "bot",
  type: "text",
  text: `abeg my transfer of ₦15,000 never enter since morning, reference ${n}`,
});

for (let c = 0; c < conversations; c += 1) {
  await state.append(
    `default:2348100${c}`,
    Array.from({ length: 50 }, (_, n) => entry(n)),
  );
}
const walBefore = walBytes();
const cpuBefore = process.cpuUsage();
for (let round = 0; round < rounds; round += 1) {
  for (let c = 0; c < conversations; c += 1) await state.append(`default:2348100${c}`, [entry(50 + round)]);
}
const cpu = process.cpuUsage(cpuBefore);
const appends = conversations * rounds;
const usPerAppend = (cpu.user + cpu.system) / appends;
const walPerAppend = (walBytes() - walBefore) / appends;
process.stdout.write(
  `${dist}: ${appends} appends to conversations of 50 entries: ${usPerAppend.toFixed(1)} µs of CPU and ` +
    `${Math.round(walPerAppend)} bytes of WAL per append\n`,
);
db.close();
rmSync(dataDir, { recursive: true, force: true });
