import { describe, expect, it } from "vitest";
import { isKnownTimezone, isQuiet, minutesOfClock, quietTimezones } from "./quiet-hours.js";

// 2026-12-03 21:30 UTC is 22:30 in Lagos (UTC+1) and 16:30 in New York (UTC-5).
const at2130Utc = Date.UTC(2026, 11, 3, 21, 30);

describe("quiet hours", () => {
  it("reads 24-hour clock times and refuses anything else", () => {
    expect(minutesOfClock("08:00")).toBe(480);
    expect(minutesOfClock("23:59")).toBe(1439);
    expect(minutesOfClock("24:00")).toBeUndefined();
    expect(minutesOfClock("8:00")).toBeUndefined();
  });

  it("is quiet at night in the recipient's own zone, across midnight", () => {
    const night = { start: "21:00", end: "08:00" };
    expect(isQuiet(night, "Africa/Lagos", at2130Utc)).toBe(true);
    expect(isQuiet(night, "America/New_York", at2130Utc)).toBe(false);
    // 07:59 Lagos is still quiet; 08:00 is not.
    expect(isQuiet(night, "Africa/Lagos", Date.UTC(2026, 11, 4, 6, 59))).toBe(true);
    expect(isQuiet(night, "Africa/Lagos", Date.UTC(2026, 11, 4, 7, 0))).toBe(false);
  });

  it("handles a window inside one day", () => {
    const lunch = { start: "13:00", end: "14:00" };
    expect(isQuiet(lunch, "UTC", Date.UTC(2026, 11, 3, 13, 30))).toBe(true);
    expect(isQuiet(lunch, "UTC", Date.UTC(2026, 11, 3, 14, 0))).toBe(false);
  });

  it("lists the zones that are quiet now", () => {
    const zones = quietTimezones(
      { start: "21:00", end: "08:00" },
      ["Africa/Lagos", "America/New_York"],
      at2130Utc,
    );
    expect(zones).toEqual(["Africa/Lagos"]);
    expect(quietTimezones(undefined, ["Africa/Lagos"], at2130Utc)).toEqual([]);
  });

  it("knows real time zones only", () => {
    expect(isKnownTimezone("Africa/Lagos")).toBe(true);
    expect(isKnownTimezone("Mars/Olympus")).toBe(false);
  });
});
