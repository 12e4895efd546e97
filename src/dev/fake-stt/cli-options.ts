import { parseArgs } from "node:util";
import { z } from "zod";
import { FAULT_STATUSES, type FaultStatus, numberFlag, parseLatencyFlag } from "../fake-server/index.js";
import type { FakeSttOptions } from "./create-fake-stt.js";
import { type FakeTranscriptRules, transcriptRulesSchema } from "./transcripts.js";

/** What `sharpsharp fake-stt` runs with. */
export interface FakeSttCliOptions {
  readonly host: string;
  readonly port: number;
  readonly stt: FakeSttOptions;
}

export type FakeSttCliParse =
  | { readonly ok: true; readonly value: FakeSttCliOptions }
  | { readonly ok: false; readonly problems: readonly string[] };

/** What the parser needs from outside: a way to read the transcripts file. */
export interface FakeSttCliDeps {
  readonly readText: (path: string) => string;
}

export const FAKE_STT_USAGE = `Usage: sharpsharp fake-stt [options]

A fake OpenAI-compatible speech server (POST /v1/audio/transcriptions and /v1/audio/speech) on a real
port, for local runs and tests (docs/speech.md).

Options:
  --host <host>                listen address (default 127.0.0.1)
  --port <port>                listen port (default 4300; 0 = any free port)
  --latency <ms|min-max>       delay before every answer: 50, or 1000-3000 drawn uniformly (default 0)
  --error-rate <0..1>          share of calls answered with --error-status (default 0)
  --error-status <status>      500 (default), 429 (sends retry-after: 1), 502, 503 or 504
  --transcripts <file.json>    scripted transcripts: {"<sha256 hex or file name>": "text" or {text, language?, durationSeconds?}}
  --default-transcript <text>  the transcript of audio no rule names (default "This is a voice note.")
  --speech-format <wav|ogg>    what /v1/audio/speech answers (default wav: the client transcodes it)
  --api-key <key>              require Authorization: Bearer <key> (default: any key)
  --seed <n>                   seed of the random source for errors and latency (default 1)`;

function readTranscripts(
  path: string,
  deps: FakeSttCliDeps,
  problems: string[],
): FakeTranscriptRules | undefined {
  let text: string;
  try {
    text = deps.readText(path);
  } catch (error) {
    problems.push(
      `--transcripts: cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    problems.push(`--transcripts: "${path}" is not JSON (${(error as Error).message})`);
    return undefined;
  }
  const parsed = transcriptRulesSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  problems.push(`--transcripts ${path}: ${z.prettifyError(parsed.error)}`);
  return undefined;
}

/** Parses the flags of `sharpsharp fake-stt`; every problem is reported at once. */
export function parseFakeSttArgs(args: readonly string[], deps: FakeSttCliDeps): FakeSttCliParse {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        latency: { type: "string" },
        "error-rate": { type: "string" },
        "error-status": { type: "string" },
        transcripts: { type: "string" },
        "default-transcript": { type: "string" },
        "speech-format": { type: "string" },
        "api-key": { type: "string" },
        seed: { type: "string" },
      },
    }));
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
  const problems: string[] = [];
  const text = (name: string) => values[name] as string | undefined;
  const whole = (n: number) => Number.isInteger(n) && n >= 0;
  const port = numberFlag(text("port"), "port", problems, (n) => whole(n) && n <= 65_535) ?? 4300;
  const errorRate = numberFlag(text("error-rate"), "error-rate", problems, (n) => n >= 0 && n <= 1);
  const errorStatus = numberFlag(text("error-status"), "error-status", problems, (n) =>
    FAULT_STATUSES.includes(n as FaultStatus),
  ) as FaultStatus | undefined;
  const seed = numberFlag(text("seed"), "seed", problems, (n) => whole(n) && n <= 0xffff_ffff);
  const latencyRaw = text("latency");
  const latencyMs = latencyRaw === undefined ? undefined : parseLatencyFlag(latencyRaw, problems);
  const transcriptsPath = text("transcripts");
  const transcripts =
    transcriptsPath === undefined ? undefined : readTranscripts(transcriptsPath, deps, problems);
  const speechFormat = text("speech-format");
  if (speechFormat !== undefined && speechFormat !== "wav" && speechFormat !== "ogg")
    problems.push(`--speech-format: "${speechFormat}" is not valid (wav or ogg)`);
  const apiKey = text("api-key");
  if (apiKey !== undefined && apiKey.trim() === "") problems.push("--api-key: the key is empty");
  const defaultTranscript = text("default-transcript");
  if (problems.length > 0) return { ok: false, problems };

  return {
    ok: true,
    value: {
      host: text("host") ?? "127.0.0.1",
      port,
      stt: {
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(transcripts === undefined ? {} : { transcripts }),
        ...(defaultTranscript === undefined ? {} : { defaultTranscript }),
        ...(speechFormat === "wav" || speechFormat === "ogg" ? { speechFormat } : {}),
        ...(latencyMs === undefined ? {} : { latencyMs }),
        ...(seed === undefined ? {} : { seed }),
        faults: {
          ...(errorRate === undefined ? {} : { errorRate }),
          ...(errorStatus === undefined ? {} : { errorStatus }),
        },
      },
    },
  };
}
