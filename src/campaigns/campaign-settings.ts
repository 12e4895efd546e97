import { z } from "zod";
import type { QuietHours } from "./campaign-types.js";
import { CampaignInvalidError } from "./errors.js";
import { MESSAGING_LIMIT_TIERS } from "./messaging-tiers.js";
import { DEFAULT_CAMPAIGN_TIMEZONE, isKnownTimezone, minutesOfClock } from "./quiet-hours.js";

/** A tenant's `campaigns` settings, with their defaults. */
export interface CampaignSettings {
  /** Unique customers per moving 24 h each of its numbers may start conversations with; absent: unlimited. */
  readonly messagingLimit?: number;
  /** Share of each number's rate kept for conversation replies, percent; default 20. */
  readonly replyReservePercent: number;
  /** Time zone of recipients that name none; default Africa/Lagos. */
  readonly timezone: string;
  /** Quiet hours for campaigns that set none; default none. */
  readonly quietHours?: QuietHours;
}

/** A 24-hour clock time, as quiet hours take it. */
export const clockTime = z.string().refine((value) => minutesOfClock(value) !== undefined, {
  error: 'must be a 24-hour clock time such as "21:00"',
});

const settingsSchema = z.strictObject({
  messagingLimit: z
    .union([z.number().int().min(1), z.enum(Object.keys(MESSAGING_LIMIT_TIERS) as [string, ...string[]])])
    .optional(),
  replyReservePercent: z.number().min(0).max(90).default(20),
  timezone: z
    .string()
    .refine(isKnownTimezone, { error: "must be an IANA time zone such as Africa/Lagos" })
    .default(DEFAULT_CAMPAIGN_TIMEZONE),
  quietHours: z.strictObject({ start: clockTime, end: clockTime }).optional(),
});

/** Reads `settings.campaigns` of a tenant; throws CampaignInvalidError naming the tenant and every problem. */
export function campaignSettingsOf(tenant: {
  readonly id: string;
  readonly settings: Readonly<Record<string, unknown>>;
}): CampaignSettings {
  const parsed = settingsSchema.safeParse(tenant.settings.campaigns ?? {});
  if (!parsed.success) {
    throw new CampaignInvalidError(
      parsed.error.issues.map(
        (issue) => `tenant ${tenant.id}: campaigns.${issue.path.join(".")} ${issue.message}`,
      ),
    );
  }
  const { messagingLimit, quietHours, ...rest } = parsed.data;
  const limit = typeof messagingLimit === "string" ? MESSAGING_LIMIT_TIERS[messagingLimit] : messagingLimit;
  return {
    ...rest,
    ...(limit === undefined ? {} : { messagingLimit: limit }),
    ...(quietHours === undefined ? {} : { quietHours }),
  };
}
