import type { Campaign, CampaignRecipient } from "./campaign-types.js";

const CALLBACK_PREFIX = "ss-campaign";

/**
 * The `biz_opaque_callback_data` a campaign message carries: Meta echoes it in every status of the
 * message, so a status ties back to its recipient even when the sender died before it could record
 * the wamid Meta answered.
 */
export function campaignCallbackData(campaignId: string, seq: number): string {
  return `${CALLBACK_PREFIX}:${campaignId}:${seq}`;
}

/** The campaign recipient a status's callback data names; undefined for anything else. */
export function parseCampaignCallbackData(
  data: string | undefined,
): { campaignId: string; seq: number } | undefined {
  if (data === undefined) return undefined;
  const match = /^ss-campaign:([A-Za-z0-9_-]{1,64}):(\d{1,9})$/.exec(data);
  if (match === null) return undefined;
  return { campaignId: match[1] as string, seq: Number(match[2]) };
}

/** The Graph API message body (without `to`/`recipient`) that sends a campaign's template to one recipient. */
export function campaignTemplateBody(
  campaign: Campaign,
  recipient: CampaignRecipient,
): Record<string, unknown> & {
  type: string;
} {
  const components =
    recipient.params.length === 0
      ? []
      : [{ type: "body", parameters: recipient.params.map((text) => ({ type: "text", text })) }];
  return {
    type: "template",
    template: {
      name: campaign.template.name,
      language: { code: campaign.template.language },
      ...(components.length === 0 ? {} : { components }),
    },
    biz_opaque_callback_data: campaignCallbackData(campaign.id, recipient.seq),
  };
}

/** The template's text as the customer read it, for the conversation's history; undefined without a body text. */
export function renderedTemplateText(campaign: Campaign, params: readonly string[]): string | undefined {
  const body = campaign.template.bodyText;
  if (body === undefined) return undefined;
  return body.replace(
    /\{\{\s*(\d+)\s*\}\}/g,
    (whole, position: string) => params[Number(position) - 1] ?? whole,
  );
}
