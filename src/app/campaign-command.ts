import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { parseArgs } from "node:util";

export const CAMPAIGN_USAGE = `Usage: sharpsharp campaign <action> --tenant T [options]

  create --tenant T --name N --template NAME --language CODE --audience FILE.csv|FILE.json
         [--category marketing|utility|authentication] [--body "Hi {{1}}, ..."] [--number PHONE_NUMBER_ID]
         [--start-at 2026-12-24T09:00:00+01:00] [--quiet 21:00-08:00] [--timezone Africa/Lagos]
         [--rate MESSAGES_PER_SECOND] [--key CLIENT_KEY]
         Creates a draft (the same --key, by default a hash of the command and the file, answers
         the one already made). Prints its id.
  start|pause|resume|cancel --tenant T ID
  status --tenant T ID [--json]     The report: sent, delivered, read, failed by code, replies, opt-outs…
  list --tenant T [--json]
  suppress --tenant T --file FILE [--remove]
         Imports customers onto the tenant's suppression list (one wa_id or user id per line, or a CSV
         whose first column is one); --remove takes them off it. Every campaign skips those on it.

It talks to the running gateway's console API: SHARPSHARP_API_URL (default http://ADMIN_HOST:ADMIN_PORT)
with SHARPSHARP_API_TOKEN, an API token from \`sharpsharp admin token\`.`;

/** Where the API is and how to reach it. */
export interface CampaignCommandEnv {
  readonly apiUrl: string;
  readonly token?: string;
  readonly fetch?: typeof fetch;
}

/** What the command printed, and its exit code (0 ok, 1 refused by the gateway, 2 bad usage). */
export interface CampaignCommandResult {
  readonly output: string;
  readonly exitCode: 0 | 1 | 2;
}

const usage = (problem: string): CampaignCommandResult => ({
  output: `${problem}\n\n${CAMPAIGN_USAGE}`,
  exitCode: 2,
});

/** `sharpsharp campaign …`: a client of the console API of the running gateway (either mode). */
export async function runCampaignCommand(
  env: CampaignCommandEnv,
  args: readonly string[],
): Promise<CampaignCommandResult> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [action, id] = positionals;
  if (action === undefined || action === "help")
    return { output: CAMPAIGN_USAGE, exitCode: action === undefined ? 2 : 0 };
  if (values.tenant === undefined) return usage("--tenant is required");
  if (env.token === undefined) {
    return usage(
      "SHARPSHARP_API_TOKEN is not set: create one with `sharpsharp admin token --email E --name N`",
    );
  }
  const base = `${env.apiUrl}/api/v1/tenants/${encodeURIComponent(values.tenant)}/campaigns`;
  const call = async (method: "GET" | "POST", url: string, body?: unknown) => {
    let response: Response;
    try {
      response = await (env.fetch ?? fetch)(url, {
        method,
        headers: {
          authorization: `Bearer ${env.token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new Error(
        `cannot reach the gateway's console API at ${env.apiUrl} (${(error as Error).message}); is it running?`,
      );
    }
    const text = await response.text();
    const json = text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>);
    if (!response.ok)
      throw new Error(`${response.status} ${String(json?.error ?? "")}: ${String(json?.message ?? text)}`);
    return json as Record<string, unknown>;
  };

  try {
    switch (action) {
      case "create":
        return await create(values, base, call);
      case "start":
      case "pause":
      case "resume":
      case "cancel": {
        if (id === undefined) return usage(`campaign ${action} needs the campaign id`);
        const campaign = await call("POST", `${base}/${encodeURIComponent(id)}/${action}`);
        return {
          output: `${campaign.id}: ${campaign.state}${campaign.stateReason ? ` (${campaign.stateReason})` : ""}`,
          exitCode: 0,
        };
      }
      case "status": {
        if (id === undefined) return usage("campaign status needs the campaign id");
        const report = await call("GET", `${base}/${encodeURIComponent(id)}`);
        return { output: values.json ? JSON.stringify(report, null, 2) : formatReport(report), exitCode: 0 };
      }
      case "list": {
        const { items } = (await call("GET", base)) as { items: Record<string, unknown>[] };
        if (values.json) return { output: JSON.stringify(items, null, 2), exitCode: 0 };
        const lines = items.map(
          (c) => `${c.id}  ${String(c.state).padEnd(9)}  ${c.audienceSize} recipients  ${c.name}`,
        );
        return { output: lines.length === 0 ? "no campaigns" : lines.join("\n"), exitCode: 0 };
      }
      case "suppress": {
        if (values.file === undefined) return usage("campaign suppress needs --file");
        let text: string;
        try {
          text = await readFile(values.file, "utf8");
        } catch (error) {
          return usage(`cannot read ${values.file}: ${(error as Error).message}`);
        }
        const customers = text
          .split(/\r?\n/)
          .map((line) => (line.split(",")[0] ?? "").trim().replace(/^"|"$/g, ""))
          .filter((id) => id !== "" && !/^(wa_id|user_id|phone)$/i.test(id));
        if (customers.length === 0) return usage(`${values.file} lists nobody`);
        const result = await call(
          "POST",
          `${env.apiUrl}/api/v1/tenants/${encodeURIComponent(values.tenant)}/suppressions`,
          { action: values.remove ? "opt_in" : "opt_out", customers },
        );
        const verb = values.remove ? "taken off" : "added to";
        return {
          output: `${result.changed} ${verb} the suppression list; it holds ${result.total}`,
          exitCode: 0,
        };
      }
      default:
        return usage(`unknown action "${action}"`);
    }
  } catch (error) {
    return { output: (error as Error).message, exitCode: 1 };
  }
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      tenant: { type: "string" },
      name: { type: "string" },
      template: { type: "string" },
      language: { type: "string" },
      category: { type: "string" },
      body: { type: "string" },
      audience: { type: "string" },
      number: { type: "string" },
      "start-at": { type: "string" },
      quiet: { type: "string" },
      timezone: { type: "string" },
      rate: { type: "string" },
      key: { type: "string" },
      json: { type: "boolean" },
      file: { type: "string" },
      remove: { type: "boolean" },
    },
  });
}

type Values = ReturnType<typeof parse>["values"];

async function create(
  values: Values,
  base: string,
  call: (method: "POST", url: string, body: unknown) => Promise<Record<string, unknown>>,
): Promise<CampaignCommandResult> {
  const missing = (["name", "template", "language", "audience"] as const).filter(
    (flag) => values[flag] === undefined,
  );
  if (missing.length > 0)
    return usage(`campaign create needs ${missing.map((flag) => `--${flag}`).join(", ")}`);
  const file = values.audience as string;
  const format = extname(file).toLowerCase() === ".json" ? "json" : "csv";
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return usage(`cannot read the audience file ${file}: ${(error as Error).message}`);
  }
  let quietHours: { start: string; end: string } | undefined;
  if (values.quiet !== undefined) {
    const [start, end] = values.quiet.split("-");
    if (start === undefined || end === undefined) return usage('--quiet must look like "21:00-08:00"');
    quietHours = { start, end };
  }
  const rate = values.rate === undefined ? undefined : Number(values.rate);
  if (rate !== undefined && !(rate > 0))
    return usage("--rate must be a positive number of messages per second");
  const definition = {
    name: values.name,
    template: {
      name: values.template,
      language: values.language,
      ...(values.category === undefined ? {} : { category: values.category }),
      ...(values.body === undefined ? {} : { bodyText: values.body }),
    },
    ...(values.number === undefined ? {} : { phoneNumberId: values.number }),
    ...(values["start-at"] === undefined ? {} : { startAt: values["start-at"] }),
    ...(quietHours === undefined ? {} : { quietHours }),
    ...(values.timezone === undefined ? {} : { timezone: values.timezone }),
    ...(rate === undefined ? {} : { sendRateMps: rate }),
  };
  // Running the same command twice (a retry after a timeout) must not make a second campaign.
  const clientKey =
    values.key ??
    createHash("sha256").update(JSON.stringify(definition)).update(text).digest("hex").slice(0, 32);
  const answer = await call("POST", base, { ...definition, clientKey, audience: { format, text } });
  const campaign = answer.campaign as Record<string, unknown>;
  const how = answer.created === true ? "created" : "already created with this key";
  return {
    output: `${campaign.id}: ${how}, ${campaign.state}, ${campaign.audienceSize} recipients\nstart it with: sharpsharp campaign start --tenant ${campaign.tenantId} ${campaign.id}`,
    exitCode: 0,
  };
}

/** A report as an operator reads it in a terminal. */
function formatReport(report: Record<string, unknown>): string {
  const campaign = report.campaign as Record<string, unknown>;
  const counts = (record: unknown) =>
    Object.entries((record ?? {}) as Record<string, number>)
      .map(([key, count]) => `${key} ${count}`)
      .join(", ") || "none";
  return [
    `${campaign.id}  ${campaign.name}  (${campaign.state}${campaign.stateReason ? `: ${campaign.stateReason}` : ""})`,
    `template   ${(campaign.template as Record<string, unknown>).name} (${(campaign.template as Record<string, unknown>).language}) from ${campaign.phoneNumberId}`,
    `targeted   ${report.targeted}`,
    `to send    ${report.pending} (held by the messaging limit: ${report.heldForLimit}), sending ${report.sending}, outcome unknown ${report.unknown}`,
    `skipped    ${counts(report.skipped)}`,
    `sent       ${report.sent}   delivered ${report.delivered}   read ${report.read}`,
    `failed     ${counts(report.failed)}`,
    `replied    ${report.replied}   opted out ${report.optedOut}   handed to a human ${report.handoffs}   checkouts ${report.checkouts}`,
    `billable   ${counts(report.billable)}`,
  ].join("\n");
}
