import type { TenantConfig } from "../config/index.js";

export interface TemplateSummary {
  readonly name: string;
  readonly language: string;
  readonly category?: string;
  readonly status?: string;
  /** The BODY component's text, with its {{1}}… placeholders. */
  readonly body?: string;
  readonly parameterCount: number;
}

export interface TemplateList {
  readonly items: readonly TemplateSummary[];
  /** Why the list is empty or stale, for the operator. */
  readonly reason?: string;
}

export interface TemplateCatalogDeps {
  readonly graph: { readonly baseUrl: string; readonly version: string };
  readonly now: () => number;
  readonly fetch?: typeof fetch;
  /** How long a list is reused, ms; default 5 minutes (templates change rarely; Meta limits calls). */
  readonly cacheMs?: number;
}

export type TemplateCatalog = ReturnType<typeof createTemplateCatalog>;

interface GraphTemplate {
  readonly name?: unknown;
  readonly language?: unknown;
  readonly status?: unknown;
  readonly category?: unknown;
  readonly components?: readonly { readonly type?: unknown; readonly text?: unknown }[];
}

/**
 * A tenant's approved templates from the Graph API's
 * `GET /{waba-id}/message_templates`, cached: a read for the operator's
 * picker, never a send (sends go through the outbound queue).
 */
export function createTemplateCatalog(deps: TemplateCatalogDeps) {
  const cacheMs = deps.cacheMs ?? 300_000;
  const doFetch = deps.fetch ?? fetch;
  const cache = new Map<string, { readonly at: number; readonly list: TemplateList }>();

  const load = async (tenant: TenantConfig, wabaId: string): Promise<TemplateList> => {
    if (tenant.graphToken === undefined) return { items: [], reason: "the tenant has no Graph API token" };
    const url = new URL(
      `${deps.graph.baseUrl}/${deps.graph.version}/${encodeURIComponent(wabaId)}/message_templates`,
    );
    url.searchParams.set("fields", "name,language,status,category,components");
    url.searchParams.set("limit", "200");
    let response: Response;
    try {
      response = await doFetch(url, {
        headers: { authorization: `Bearer ${tenant.graphToken}` },
        signal: AbortSignal.timeout(5000),
      });
    } catch (error) {
      return { items: [], reason: `the Graph API did not answer (${(error as Error).name})` };
    }
    if (!response.ok)
      return { items: [], reason: `the Graph API answered ${response.status} to the template list` };
    const json = (await response.json().catch(() => undefined)) as
      | { data?: readonly GraphTemplate[] }
      | undefined;
    const items = (json?.data ?? []).flatMap((template): TemplateSummary[] => {
      if (typeof template.name !== "string" || typeof template.language !== "string") return [];
      if (template.status !== undefined && template.status !== "APPROVED") return [];
      const body = template.components?.find((component) => component.type === "BODY")?.text;
      const text = typeof body === "string" ? body : undefined;
      return [
        {
          name: template.name,
          language: template.language,
          ...(typeof template.category === "string" ? { category: template.category } : {}),
          ...(typeof template.status === "string" ? { status: template.status } : {}),
          ...(text === undefined ? {} : { body: text }),
          parameterCount: new Set(text?.match(/\{\{\s*\d+\s*\}\}/g) ?? []).size,
        },
      ];
    });
    return { items };
  };

  return {
    /** The tenant's approved templates; `wabaId` undefined answers an empty list with the reason. */
    async list(tenant: TenantConfig, wabaId: string | undefined): Promise<TemplateList> {
      if (wabaId === undefined) {
        return {
          items: [],
          reason:
            "the business account id is not known yet: set wabaId in the tenant's settings, or wait for a customer message",
        };
      }
      const key = `${tenant.id}:${wabaId}`;
      const cached = cache.get(key);
      if (cached !== undefined && deps.now() - cached.at < cacheMs) return cached.list;
      const list = await load(tenant, wabaId);
      // A failed answer is not kept: the next open of the picker asks again.
      if (list.reason === undefined) cache.set(key, { at: deps.now(), list });
      return list;
    },
  };
}
