import type { AudienceMember } from "./campaign-types.js";

/** One audience member as the recipients table keeps it. */
export interface AudienceRow {
  readonly seq: number;
  readonly customerId: string;
  readonly kind: AudienceMember["kind"];
  /** JSON text of the template's parameters. */
  readonly params: string;
  readonly timezone: string;
  readonly state: "pending" | "skipped";
  readonly reason: "duplicate" | null;
}

/**
 * The audience in order, every member keeping its place (seq from 1): a customer listed again is a
 * skipped duplicate, so the counts of a report add up to the audience size.
 */
export function audienceRows(audience: readonly AudienceMember[], campaignTimezone: string): AudienceRow[] {
  const seen = new Set<string>();
  return audience.map((member, index) => {
    const duplicate = seen.has(member.customerId);
    seen.add(member.customerId);
    return {
      seq: index + 1,
      customerId: member.customerId,
      kind: member.kind,
      params: JSON.stringify(member.params),
      timezone: member.timezone ?? campaignTimezone,
      state: duplicate ? "skipped" : "pending",
      reason: duplicate ? "duplicate" : null,
    };
  });
}
