import { z } from "zod";
import {
  type FakeCliParse,
  type ListenAddress,
  parseServiceArgs,
  readJsonFlagFile,
} from "../fake-server/index.js";
import type { FakeSttOptions } from "./create-fake-stt.js";
import { type FakeTranscriptRules, transcriptRulesSchema } from "./transcripts.js";

/** What `sharpsharp fake-stt` runs with. */
export interface FakeSttCliOptions extends ListenAddress {
  readonly stt: FakeSttOptions;
}

export type FakeSttCliParse = FakeCliParse<FakeSttCliOptions>;

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
  const file = readJsonFlagFile("transcripts", path, deps.readText, problems);
  if (file === undefined) return undefined;
  const parsed = transcriptRulesSchema.safeParse(file.json);
  if (parsed.success) return parsed.data;
  problems.push(`--transcripts ${path}: ${z.prettifyError(parsed.error)}`);
  return undefined;
}

/** Parses the flags of `sharpsharp fake-stt`; every problem is reported at once. */
export function parseFakeSttArgs(args: readonly string[], deps: FakeSttCliDeps): FakeSttCliParse {
  const parsed = parseServiceArgs(args, {
    defaultPort: 4300,
    flags: {
      transcripts: { type: "string" },
      "default-transcript": { type: "string" },
      "speech-format": { type: "string" },
    },
    readOwnFlags(text, problems): Pick<FakeSttOptions, "transcripts" | "defaultTranscript" | "speechFormat"> {
      const path = text("transcripts");
      const transcripts = path === undefined ? undefined : readTranscripts(path, deps, problems);
      const defaultTranscript = text("default-transcript");
      const speechFormat = text("speech-format");
      if (speechFormat !== undefined && speechFormat !== "wav" && speechFormat !== "ogg")
        problems.push(`--speech-format: "${speechFormat}" is not valid (wav or ogg)`);
      return {
        ...(transcripts === undefined ? {} : { transcripts }),
        ...(defaultTranscript === undefined ? {} : { defaultTranscript }),
        ...(speechFormat === "wav" || speechFormat === "ogg" ? { speechFormat } : {}),
      };
    },
  });
  if (!parsed.ok) return parsed;
  const { host, port, service, own } = parsed.value;
  return { ok: true, value: { host, port, stt: { ...service, ...own } } };
}
