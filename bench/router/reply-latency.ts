/**
 * What fitting a reply to the customer costs per turn (routeTurn: tiers,
 * language and slots, template rendering), per tier, for a tenant with a
 * plain failed_transaction reply and one with a slot-aware reply.
 *
 *   node dist/bench/router/reply-latency.js [--runs 20000]
 *
 * Needs `npm run build`. The ask-once history read is not included (it is a
 * store round trip, on asking turns only).
 */
import { parseArgs } from "node:util";
import type { TenantConfig } from "../../src/config/index.js";
import { loadIntentRouter, resolveResponderSettings, routeTurn } from "../../src/router/index.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "20000" } } });
const runs = Number(values.runs);

const PLAIN = { text: "Sorry o! Abeg send the amount, the date and the account." };
const SLOTS = {
  needs: ["amount", "date", "account"],
  text: { pcm: "I see {amount} {date} for account {account}. We dey check am." },
  ask: { pcm: "Sorry o! {known}Abeg send {missing} make we check am." },
  known: { pcm: "I see {seen}. " },
};
const MESSAGES = [
  "hi",
  "thank you o",
  "I sharp sharp transfer ₦15k since morning, my account never credit",
  "wetin be the weather for Abuja",
];

const tenantWith = (reply: unknown): TenantConfig =>
  ({ id: "bench", settings: { replies: { failed_transaction: reply } } }) as unknown as TenantConfig;
const message = (text: string): InboundMessage =>
  ({ type: "text", text, wamid: "w", customer: { waId: "234" } }) as unknown as InboundMessage;

const router = loadIntentRouter();
for (const [name, reply] of [
  ["plain reply", PLAIN],
  ["slot-aware reply", SLOTS],
] as const) {
  const settings = resolveResponderSettings(tenantWith(reply));
  process.stdout.write(`${name}\n`);
  for (const text of MESSAGES) {
    const turn = [message(text)];
    for (let i = 0; i < 2000; i += 1) routeTurn(settings, turn, router);
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const start = process.hrtime.bigint();
      routeTurn(settings, turn, router);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => (times[Math.floor(q * (times.length - 1))] as number).toFixed(4);
    const routed = routeTurn(settings, turn, router);
    process.stdout.write(
      `  ${routed.tier.padEnd(10)} p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  ${JSON.stringify(text.slice(0, 40))} -> ${JSON.stringify(routed.reply.text.slice(0, 70))}\n`,
    );
  }
}
