// The campaigns part of the console's API: a tenant's campaigns, one campaign's report, creating a
// draft and the start, pause, resume and cancel actions (admins of the tenant only).
import { request } from "./api";

export type CampaignState = "draft" | "scheduled" | "running" | "paused" | "completed" | "cancelled";
export type CampaignAction = "start" | "pause" | "resume" | "cancel";
export type TemplateCategory = "marketing" | "utility" | "authentication";

export interface Campaign {
  id: string;
  tenantId: string;
  phoneNumberId: string;
  name: string;
  clientKey: string;
  state: CampaignState;
  /** Why it is paused or cancelled: "operator", "quality_red", "template_paused"… */
  stateReason?: string;
  template: { name: string; language: string; category: string; bodyText?: string };
  startAt?: number;
  timezone: string;
  quietHours?: { start: string; end: string };
  sendRateMps?: number;
  audienceSize: number;
  createdAt: number;
  updatedAt: number;
}

export interface CampaignReport {
  campaign: Campaign;
  targeted: number;
  pending: number;
  heldForLimit: number;
  sending: number;
  unknown: number;
  /** By reason: opted_out, duplicate, cancelled. */
  skipped: Record<string, number>;
  sent: number;
  delivered: number;
  read: number;
  /** By Meta's error code. */
  failed: Record<string, number>;
  replied: number;
  optedOut: number;
  handoffs: number;
  checkouts: number;
  billable: Record<string, number>;
  /** [minute start in ms, messages sent in it]. */
  timeline: [number, number][];
}

export interface NewCampaign {
  name: string;
  /** Makes a retried create answer the campaign already made. */
  clientKey: string;
  template: { name: string; language: string; category: TemplateCategory; bodyText?: string };
  audience: { format: "csv" | "json"; text: string };
  quietHours?: { start: string; end: string };
}

const base = (tenant: string) => `/tenants/${encodeURIComponent(tenant)}/campaigns`;

export const campaignApi = {
  list: (tenant: string) => request<{ items: Campaign[] }>("GET", base(tenant)),
  report: (tenant: string, id: string) =>
    request<CampaignReport>("GET", `${base(tenant)}/${encodeURIComponent(id)}`),
  create: (tenant: string, campaign: NewCampaign) =>
    request<{ campaign: Campaign; created: boolean }>("POST", base(tenant), campaign),
  act: (tenant: string, id: string, action: CampaignAction) =>
    request<Campaign>("POST", `${base(tenant)}/${encodeURIComponent(id)}/${action}`, {}),
};
