import {
  type FakeCliParse,
  isWhole,
  type ListenAddress,
  numberFlag,
  portFlag,
  readFlags,
} from "../fake-server/index.js";
import type { FakeGraphApiOptions } from "./create-fake-graph-api.js";

/** What `sharpsharp fake-graph` runs with. */
export interface FakeGraphCliOptions extends ListenAddress {
  readonly api: FakeGraphApiOptions;
}

export type FakeGraphCliParse = FakeCliParse<FakeGraphCliOptions>;

export const FAKE_GRAPH_USAGE = `Usage: sharpsharp fake-graph [options]

A fake WhatsApp Graph API on a real port, for local runs and load tests.

Options:
  --host <host>                listen address (default 127.0.0.1)
  --port <port>                listen port (default 4000; 0 = any free port)
  --token <token>              accepted bearer token, repeatable (default: $WHATSAPP_TOKEN, else "test-token")
  --mps <n>                    throughput limit per phone number id, messages/s (default: no limit)
  --pair-limit on|off          Meta's pair rate limit (burst 10, then 1 per 6 s; default off)
  --error-rate <0..1>          share of sends answered 500 (131000)
  --latency-ms <ms>            delay before every answer
  --messaging-limit <n>        customers templates may reach in a moving 24 h (then 131048; default none)
  --marketing-cap-share <0..1> share of marketing template sends refused with 131049 (default 0)
  --seed <n>                   seeds the error rate, hangs and marketing cap (default: unseeded)`;

/** Parses the flags of `sharpsharp fake-graph`; every problem is reported at once. */
export function parseFakeGraphArgs(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): FakeGraphCliParse {
  const flags = readFlags(args, {
    host: { type: "string" },
    port: { type: "string" },
    token: { type: "string", multiple: true },
    mps: { type: "string" },
    "pair-limit": { type: "string" },
    "error-rate": { type: "string" },
    "latency-ms": { type: "string" },
    "messaging-limit": { type: "string" },
    "marketing-cap-share": { type: "string" },
    seed: { type: "string" },
  });
  if (!flags.ok) return flags;
  const { text, values } = flags;
  const problems: string[] = [];
  const port = portFlag(text("port"), problems, 4000);
  const mps = numberFlag(text("mps"), "mps", problems, (n) => isWhole(n) && n > 0);
  const errorRate = numberFlag(text("error-rate"), "error-rate", problems, (n) => n >= 0 && n <= 1);
  const latencyMs = numberFlag(text("latency-ms"), "latency-ms", problems, isWhole);
  const messagingLimit = numberFlag(text("messaging-limit"), "messaging-limit", problems, isWhole);
  const marketingCapShare = numberFlag(
    text("marketing-cap-share"),
    "marketing-cap-share",
    problems,
    (n) => n >= 0 && n <= 1,
  );
  const seed = numberFlag(text("seed"), "seed", problems, (n) => isWhole(n) && n <= 0xffff_ffff);
  const pairLimit = text("pair-limit") ?? "off";
  if (pairLimit !== "on" && pairLimit !== "off")
    problems.push(`--pair-limit: "${pairLimit}" is not on or off`);
  if (problems.length > 0) return { ok: false, problems };

  const tokens = (values.token as string[] | undefined) ?? [env.WHATSAPP_TOKEN?.trim() || "test-token"];
  return {
    ok: true,
    value: {
      host: text("host") ?? "127.0.0.1",
      port,
      api: {
        tokens,
        limits: {
          ...(mps === undefined ? {} : { throughput: { mps } }),
          ...(pairLimit === "on" ? { pair: {} } : {}),
        },
        faults: {
          ...(errorRate === undefined ? {} : { errorRate }),
          ...(latencyMs === undefined ? {} : { latencyMs }),
        },
        ...(messagingLimit === undefined ? {} : { messagingLimit: { uniqueRecipients: messagingLimit } }),
        ...(marketingCapShare === undefined ? {} : { marketingCapShare }),
        ...(seed === undefined ? {} : { seed }),
      },
    },
  };
}
