/** What the bench reads of a campaign as the console API answers it. */
export interface CampaignView {
  readonly id: string;
  readonly state: string;
  readonly stateReason?: string;
  readonly audienceSize: number;
  readonly updatedAt: number;
}

/** What the bench reads of a campaign's report (GET …/campaigns/:id). */
export interface CampaignReportView {
  readonly campaign: CampaignView;
  readonly targeted: number;
  readonly pending: number;
  readonly heldForLimit: number;
  readonly sending: number;
  readonly unknown: number;
  readonly skipped: Record<string, number>;
  readonly sent: number;
  readonly delivered: number;
  readonly failed: Record<string, number>;
  readonly replied: number;
}

export interface AudienceRow {
  readonly wa_id: string;
  readonly params: readonly string[];
}

/** The campaigns part of the console API, with an operator's API token, as a script calls it. */
export function createCampaignApi(apiUrl: string, token: string, tenant: string) {
  const base = `${apiUrl}/api/v1/tenants/${encodeURIComponent(tenant)}/campaigns`;
  const call = async <T>(method: "GET" | "POST", url: string, body?: unknown): Promise<T> => {
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  };
  return {
    async create(
      definition: Record<string, unknown>,
      audience: readonly AudienceRow[],
    ): Promise<CampaignView> {
      const answer = await call<{ campaign: CampaignView }>("POST", base, { ...definition, audience });
      return answer.campaign;
    },
    act: (id: string, action: "start" | "pause" | "resume" | "cancel") =>
      call<CampaignView>("POST", `${base}/${encodeURIComponent(id)}/${action}`),
    report: (id: string) => call<CampaignReportView>("GET", `${base}/${encodeURIComponent(id)}`),
  };
}

export type CampaignApi = ReturnType<typeof createCampaignApi>;
