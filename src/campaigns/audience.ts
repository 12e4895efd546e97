import { parse as parseCsv } from "csv-parse/sync";
import type { AudienceMember } from "./campaign-types.js";
import { CampaignInvalidError } from "./errors.js";
import { isKnownTimezone } from "./quiet-hours.js";

/** How an audience is written: CSV with a header row, or a JSON array. */
export type AudienceFormat = "csv" | "json";

/** Meta's own bounds on a text parameter of a template body. */
const MAX_PARAM_CHARS = 1024;
const MAX_USER_ID_CHARS = 128;

/**
 * Reads an audience. CSV: a header row with `wa_id` (or `phone`) or `user_id`, then the body's
 * parameters as `1`, `2`, … (or `param1`, `param2`, …), and an optional `timezone`. JSON: an
 * array of `{ wa_id | user_id, params: [...], timezone? }`. Every row is checked (a wa_id is the
 * full international number, digits only, "+" and spaces allowed; parameters are non-empty, one
 * line, at most 1,024 characters; `expectedParams` when the template's count is known) and all
 * problems are reported at once: an audience with any bad row is refused whole, so nobody is
 * sent a half-filled template.
 */
export function parseAudience(
  text: string,
  format: AudienceFormat,
  expectedParams?: number,
): AudienceMember[] {
  const rows = format === "csv" ? csvRows(text) : jsonRows(text);
  const problems: string[] = [];
  const members: AudienceMember[] = [];
  rows.forEach((row, index) => {
    const where = format === "csv" ? `row ${index + 2}` : `item ${index + 1}`;
    const member = memberOf(row, where, problems, expectedParams);
    if (member !== undefined) members.push(member);
  });
  if (members.length === 0 && problems.length === 0) problems.push("the audience has nobody in it");
  if (problems.length > 0) throw new CampaignInvalidError(problems);
  return members;
}

interface RawRow {
  readonly waId?: string;
  readonly userId?: string;
  readonly params: readonly unknown[];
  readonly timezone?: unknown;
  /** A CSV row whose field count is not the header's: reported with the other rows' problems. */
  readonly shape?: string;
}

function csvRows(text: string): RawRow[] {
  let parsed: {
    record: Record<string, string>;
    info: { columns?: { name: string }[]; error?: { code?: string; record?: unknown[] } };
  }[];
  try {
    // Relaxed, so that a short or long row is one problem among the others, not the only one reported.
    parsed = parseCsv(text, {
      columns: true,
      skip_empty_lines: true,
      trim: true,
      bom: true,
      relax_column_count: true,
      info: true,
    });
  } catch (error) {
    throw new CampaignInvalidError([`the CSV cannot be read: ${(error as Error).message}`]);
  }
  // From the header row itself: the first record may be one of the short ones.
  const header = parsed[0]?.info.columns?.map((column) => column.name) ?? [];
  const paramColumns = header
    .map((name) => ({ name, position: /^(?:param)?(\d+)$/i.exec(name)?.[1] }))
    .filter((column): column is { name: string; position: string } => column.position !== undefined)
    .sort((a, b) => Number(a.position) - Number(b.position));
  return parsed.map(({ record, info }) => {
    const fields = info.error?.code === "CSV_RECORD_INCONSISTENT_COLUMNS" ? info.error.record : undefined;
    return {
      ...(fields === undefined ? {} : { shape: `${fields.length} fields, the header has ${header.length}` }),
      ...(nonEmpty(record.wa_id ?? record.phone) === undefined
        ? {}
        : { waId: nonEmpty(record.wa_id ?? record.phone) as string }),
      ...(nonEmpty(record.user_id) === undefined ? {} : { userId: record.user_id as string }),
      params: paramColumns.map((column) => record[column.name] ?? ""),
      ...(nonEmpty(record.timezone) === undefined ? {} : { timezone: record.timezone }),
    };
  });
}

function jsonRows(text: string): RawRow[] {
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch (error) {
    throw new CampaignInvalidError([`the JSON cannot be read: ${(error as Error).message}`]);
  }
  if (!Array.isArray(items)) throw new CampaignInvalidError(["the JSON audience must be an array"]);
  return items.map((item: unknown) => {
    const record = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const waId = typeof record.wa_id === "string" ? record.wa_id : undefined;
    const userId = typeof record.user_id === "string" ? record.user_id : undefined;
    return {
      ...(waId === undefined ? {} : { waId }),
      ...(userId === undefined ? {} : { userId }),
      params: Array.isArray(record.params) ? record.params : [],
      ...(record.timezone === undefined ? {} : { timezone: record.timezone }),
    };
  });
}

function memberOf(
  row: RawRow,
  where: string,
  problems: string[],
  expectedParams: number | undefined,
): AudienceMember | undefined {
  const before = problems.length;
  if (row.shape !== undefined) {
    problems.push(`${where}: ${row.shape}`);
    return undefined;
  }
  let customer: Pick<AudienceMember, "customerId" | "kind"> | undefined;
  if (row.waId !== undefined && row.userId !== undefined) {
    problems.push(`${where}: give wa_id or user_id, not both`);
  } else if (row.waId !== undefined) {
    const digits = row.waId.replace(/[\s+-]/g, "");
    if (/^\d{7,15}$/.test(digits)) customer = { customerId: digits, kind: "to" };
    else problems.push(`${where}: wa_id "${row.waId}" is not a full international number (7 to 15 digits)`);
  } else if (row.userId !== undefined) {
    if (row.userId.length <= MAX_USER_ID_CHARS) customer = { customerId: row.userId, kind: "recipient" };
    else problems.push(`${where}: user_id is longer than ${MAX_USER_ID_CHARS} characters`);
  } else {
    problems.push(`${where}: no wa_id or user_id`);
  }
  const params: string[] = [];
  row.params.forEach((param, index) => {
    if (typeof param !== "string" || param.trim() === "") {
      problems.push(`${where}: parameter ${index + 1} is empty`);
    } else if (/[\n\t]|\s{5,}/.test(param)) {
      problems.push(
        `${where}: parameter ${index + 1} has a new line, a tab or more than four spaces in a row`,
      );
    } else if (param.length > MAX_PARAM_CHARS) {
      problems.push(`${where}: parameter ${index + 1} is longer than ${MAX_PARAM_CHARS} characters`);
    } else params.push(param);
  });
  if (expectedParams !== undefined && row.params.length !== expectedParams) {
    problems.push(`${where}: ${row.params.length} parameters, the template takes ${expectedParams}`);
  }
  if (row.timezone !== undefined && (typeof row.timezone !== "string" || !isKnownTimezone(row.timezone))) {
    problems.push(`${where}: timezone "${String(row.timezone)}" is not an IANA time zone`);
  }
  if (problems.length > before || customer === undefined) return undefined;
  return {
    ...customer,
    params,
    ...(typeof row.timezone === "string" ? { timezone: row.timezone } : {}),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** How many {{n}} placeholders a template body has (the highest n), for checking an audience. */
export function placeholderCount(bodyText: string | undefined): number | undefined {
  if (bodyText === undefined) return undefined;
  const positions = [...bodyText.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((match) => Number(match[1]));
  return positions.length === 0 ? 0 : Math.max(...positions);
}
