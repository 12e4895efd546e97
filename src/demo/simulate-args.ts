import { parseArgs } from "node:util";

/** The customer `simulate` writes as, unless --from says otherwise. */
export const DEFAULT_SIMULATE_FROM = "2348012345678";
export const DEFAULT_SIMULATE_TIMEOUT_MS = 15_000;

export const SIMULATE_USAGE = `Usage: sharpsharp simulate "<text>" [options]

Sends one customer text message to the running demo (or your gateway), signed
as Meta would, and prints what the bot answers.

Options:
  --from <wa_id>        the customer's WhatsApp number, digits only (default ${DEFAULT_SIMULATE_FROM})
  --timeout-ms <ms>     how long to wait for a reply (default ${DEFAULT_SIMULATE_TIMEOUT_MS})
  --url <webhook url>   post here instead (default: the demo's, from demo.json in SHARPSHARP_DATA_DIR;
                        with WHATSAPP_APP_SECRET set: http://127.0.0.1:$PORT/webhook)

Exits 0 with the reply, 1 when the gateway refuses or no reply comes in time.
Example: npx sharpsharp simulate "abeg my transfer never enter"`;

export interface SimulateArgs {
  readonly text: string;
  readonly from: string;
  readonly timeoutMs: number;
  readonly url: string | undefined;
}

export type SimulateArgsParse =
  | { readonly ok: true; readonly value: SimulateArgs }
  | { readonly ok: false; readonly problems: readonly string[] };

/** Parses `sharpsharp simulate`'s words and flags; words without quotes are joined into one text. */
export function parseSimulateArgs(args: readonly string[]): SimulateArgsParse {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        from: { type: "string" },
        "timeout-ms": { type: "string" },
        url: { type: "string" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
  const { values, positionals } = parsed;
  const problems: string[] = [];
  const text = positionals.join(" ").trim();
  if (text === "") problems.push('the message text is missing: sharpsharp simulate "hi"');
  const from = (values.from as string | undefined) ?? DEFAULT_SIMULATE_FROM;
  if (!/^\d{6,15}$/.test(from)) problems.push(`--from: "${from}" is not a wa_id (6-15 digits, no "+")`);
  const rawTimeout = values["timeout-ms"] as string | undefined;
  const timeoutMs = rawTimeout === undefined ? DEFAULT_SIMULATE_TIMEOUT_MS : Number(rawTimeout);
  if (rawTimeout !== undefined && (!/^\d{1,7}$/.test(rawTimeout) || timeoutMs < 100)) {
    problems.push(`--timeout-ms: "${rawTimeout}" is not valid (a whole number of ms, at least 100)`);
  }
  const url = values.url as string | undefined;
  if (url !== undefined && !/^https?:\/\/\S+$/.test(url))
    problems.push(`--url: "${url}" is not an http(s) URL`);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { text, from, timeoutMs, url } };
}
