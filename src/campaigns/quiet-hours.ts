import type { QuietHours } from "./campaign-types.js";

/** West Africa Time: where a recipient's time zone is not known. */
export const DEFAULT_CAMPAIGN_TIMEZONE = "Africa/Lagos";

const clockPattern = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of "HH:MM"; undefined when it is not a 24-hour clock time. */
export function minutesOfClock(clock: string): number | undefined {
  const match = clockPattern.exec(clock);
  if (match === null) return undefined;
  return Number(match[1]) * 60 + Number(match[2]);
}

/** True for an IANA time zone this Node.js knows. */
export function isKnownTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes after local midnight in `timezone` at `now`. */
export function localMinutes(timezone: string, now: number): number {
  let format = formatters.get(timezone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone: timezone,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timezone, format);
  }
  const parts = format.formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part("hour") * 60 + part("minute");
}

/** Whether `now` falls in the quiet hours in `timezone`; a window with end ≤ start runs past midnight. */
export function isQuiet(quiet: QuietHours, timezone: string, now: number): boolean {
  const start = minutesOfClock(quiet.start);
  const end = minutesOfClock(quiet.end);
  if (start === undefined || end === undefined || start === end) return false;
  const at = localMinutes(timezone, now);
  return start < end ? at >= start && at < end : at >= start || at < end;
}

/** The time zones among `timezones` that are in their quiet hours at `now`. */
export function quietTimezones(
  quiet: QuietHours | undefined,
  timezones: Iterable<string>,
  now: number,
): string[] {
  if (quiet === undefined) return [];
  return [...timezones].filter((timezone) => isQuiet(quiet, timezone, now));
}
