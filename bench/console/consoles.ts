/**
 * N consoles on the event stream, in a process of their own (as browsers
 * are: not in the load generator's event loop). On SIGTERM prints the
 * events they read and the CPU seconds reading them took, as one JSON line, and exits.
 *
 *   node dist/bench/console/consoles.js --url http://127.0.0.1:9573 --cookie 'ss_session=…' --count 50
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { url: { type: "string" }, cookie: { type: "string" }, count: { type: "string", default: "50" } },
});
let events = 0;
let open = 0;
for (let i = 0; i < Number(values.count); i += 1) {
  const response = await fetch(`${values.url}/api/v1/events`, {
    headers: { cookie: values.cookie as string },
  });
  if (response.status !== 200) throw new Error(`event stream answered ${response.status}`);
  open += 1;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      events += decoder.decode(value, { stream: true }).split("event: ").length - 1;
    }
  })().catch(() => {});
}
process.stdout.write(`${JSON.stringify({ open })}\n`);
process.on("SIGTERM", () => {
  const { user, system } = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ events, cpuSeconds: (user + system) / 1e6 })}\n`);
  process.exit(0);
});
