// The campaigns page: the chosen tenant's campaigns with their state, one campaign's report, and the
// form that creates a draft. Which one shows is in the route (#/campaigns/<tenant>[/<id>|/new]).
import { useEffect, useState } from "preact/hooks";
import type { Tenant } from "./api";
import { type Campaign, campaignApi } from "./campaign-api";
import { CampaignDetail } from "./campaign-detail";
import { CampaignForm } from "./campaign-form";
import { isMoving, StateBadge } from "./campaign-state";
import { formatCount, formatFull, hrefOf, navigate } from "./lib";
import { ErrorAlert, Notice, Spinner, useApp } from "./ui";

function TenantPicker(props: { tenants: Tenant[]; value: string; onChange: (tenant: string) => void }) {
  return (
    <label class="field">
      <span class="field-label">Tenant</span>
      <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {props.tenants.map((t) => (
          <option key={t.id} value={t.id}>
            {t.id}
          </option>
        ))}
      </select>
    </label>
  );
}

function CampaignList(props: { tenant: Tenant; onTenant: (tenant: string) => void }) {
  const app = useApp();
  const [items, setItems] = useState<Campaign[] | undefined>();
  const [error, setError] = useState<unknown>();
  const tenant = props.tenant.id;

  const load = async () => {
    try {
      setItems((await campaignApi.list(tenant)).items);
      setError(undefined);
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => {
    setItems(undefined);
    void load();
  }, [tenant]);
  const moving = items?.some((c) => isMoving(c.state)) ?? false;
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => void load(), 5000);
    return () => clearInterval(timer);
  }, [tenant, moving]);

  return (
    <div class="page campaigns">
      <div class="page-head">
        <h1>Campaigns</h1>
        <div class="page-tools">
          <TenantPicker tenants={app.tenants} value={tenant} onChange={props.onTenant} />
          <button type="button" class="button" onClick={() => void load()}>
            Refresh
          </button>
          {props.tenant.role === "admin" && (
            <a class="button button-primary" href={hrefOf({ page: "campaigns", tenant, id: "new" })}>
              New campaign
            </a>
          )}
        </div>
      </div>
      <ErrorAlert error={error} onDismiss={() => setError(undefined)} />
      {items === undefined ? (
        error === undefined && <Spinner label="Loading campaigns…" />
      ) : items.length === 0 ? (
        <Notice>No campaigns for {tenant} yet.</Notice>
      ) : (
        <ul class="campaign-list" aria-label={`Campaigns of ${tenant}`}>
          {items.map((c) => (
            <li key={c.id} class="campaign-item" data-testid="campaign-item" data-id={c.id}>
              <a class="campaign-name" href={hrefOf({ page: "campaigns", tenant, id: c.id })}>
                {c.name}
              </a>
              <StateBadge state={c.state} reason={c.stateReason} />
              <span class="muted campaign-meta">
                {formatCount(c.audienceSize)} recipients · {c.template.name} ({c.template.language}) · created{" "}
                {formatFull(c.createdAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Campaigns(props: { tenant?: string; id?: string }) {
  const app = useApp();
  // A campaign belongs to one tenant: "all tenants" in the scope means the first of mine.
  const tenantId = props.tenant ?? (app.tenant !== "" ? app.tenant : app.tenants[0]?.id);
  const tenant = app.tenants.find((t) => t.id === tenantId);
  const choose = (next: string) => {
    app.setScope(next, "");
    navigate({ page: "campaigns", tenant: next });
  };
  if (tenant === undefined) {
    return (
      <div class="page">
        <h1>Campaigns</h1>
        <Notice>{tenantId === undefined ? "You have no tenant." : `You have no role on ${tenantId}.`}</Notice>
      </div>
    );
  }
  if (props.id === "new") return <CampaignForm tenant={tenant} />;
  if (props.id !== undefined) return <CampaignDetail tenant={tenant} id={props.id} />;
  return <CampaignList tenant={tenant} onTenant={choose} />;
}
