// One campaign's report: where its recipients are (pending, sent, delivered, read, failed by code,
// skipped by reason), what came of it (replies, opt-outs, handoffs), sends per minute, and the actions.
import { useEffect, useState } from "preact/hooks";
import type { Tenant } from "./api";
import { CampaignActions } from "./campaign-actions";
import { type Campaign, type CampaignReport, campaignApi } from "./campaign-api";
import { isMoving, StateBadge } from "./campaign-state";
import { BarChart, HBars } from "./charts";
import { Stat } from "./dashboard";
import { formatCount, formatFull, formatTime, hrefOf } from "./lib";
import { ErrorAlert, Notice, Spinner } from "./ui";

const MINUTE = 60_000;
/** Statuses and replies still arrive after the last send: keep looking for a while. */
const SETTLING_MS = 2 * MINUTE;
const REFRESH_MS = 3000;

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** Minutes with no sends are absent from the timeline: put them back, keeping the last two hours. */
function perMinute(timeline: [number, number][]): { labels: string[]; values: number[] } {
  if (timeline.length === 0) return { labels: [], values: [] };
  const sent = new Map(timeline);
  const last = Math.max(...timeline.map(([at]) => at));
  const first = Math.max(Math.min(...timeline.map(([at]) => at)), last - 119 * MINUTE);
  const labels: string[] = [];
  const values: number[] = [];
  for (let at = first; at <= last; at += MINUTE) {
    labels.push(formatTime(at));
    values.push(sent.get(at) ?? 0);
  }
  return { labels, values };
}

function Breakdowns(props: { report: CampaignReport }) {
  const r = props.report;
  const rows = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .map(([key, value]) => ({ key, label: key.replaceAll("_", " "), value }));
  const chart = perMinute(r.timeline);
  return (
    <div class="cards">
      <section class="card card-wide">
        {chart.values.length === 0 ? (
          <>
            <h2 class="chart-title">Sent per minute</h2>
            <p class="chart-empty">Nothing sent yet.</p>
          </>
        ) : (
          <BarChart
            label="Sent per minute"
            labels={chart.labels}
            series={[{ label: "Sent", color: "#0f766e", values: chart.values }]}
          />
        )}
      </section>
      <section class="card">
        <HBars label="Skipped, by reason" empty="Nobody skipped." items={rows(r.skipped)} />
      </section>
      <section class="card">
        <HBars
          label="Failed, by Meta's error code"
          color="#b91c1c"
          empty="No failed sends."
          items={rows(r.failed)}
        />
      </section>
      <section class="card">
        <HBars label="Billable messages, by category" empty="None billed yet." items={rows(r.billable)} />
      </section>
    </div>
  );
}

function Figures(props: { report: CampaignReport }) {
  const r = props.report;
  const failed = sum(r.failed);
  const inFlight = r.sending + r.unknown;
  const share = (n: number) => (r.targeted === 0 ? "" : `${Math.round((n / r.targeted) * 100)}% of targeted`);
  return (
    <div class="stats">
      <Stat
        label="Targeted"
        value={formatCount(r.targeted)}
        detail={`${formatCount(sum(r.skipped))} skipped`}
      />
      <Stat
        label="Pending"
        value={formatCount(r.pending)}
        detail={
          r.heldForLimit > 0
            ? `${formatCount(r.heldForLimit)} held for the messaging limit`
            : `${formatCount(inFlight)} sending now`
        }
        tone={r.heldForLimit > 0 ? "warn" : undefined}
      />
      <Stat label="Sent" value={formatCount(r.sent)} detail={share(r.sent)} />
      <Stat label="Delivered" value={formatCount(r.delivered)} detail={`${formatCount(r.read)} read`} />
      <Stat
        label="Failed"
        value={formatCount(failed)}
        detail={r.unknown > 0 ? `${formatCount(r.unknown)} unknown` : undefined}
        tone={failed > 0 ? "warn" : undefined}
      />
      <Stat
        label="Replied"
        value={formatCount(r.replied)}
        detail={`${formatCount(r.optedOut)} opted out · ${formatCount(r.handoffs)} handoffs · ${formatCount(r.checkouts)} checkouts`}
      />
    </div>
  );
}

function Summary(props: { campaign: Campaign }) {
  const c = props.campaign;
  return (
    <p class="muted campaign-meta">
      Template <strong>{c.template.name}</strong> ({c.template.language}, {c.template.category}) ·{" "}
      {formatCount(c.audienceSize)} recipients
      {c.quietHours !== undefined &&
        ` · quiet hours ${c.quietHours.start}–${c.quietHours.end} (${c.timezone})`}
      {c.startAt !== undefined && ` · not before ${formatFull(c.startAt)}`}
      {c.sendRateMps !== undefined && ` · at most ${c.sendRateMps}/s`} · created {formatFull(c.createdAt)}
    </p>
  );
}

export function CampaignDetail(props: { tenant: Tenant; id: string }) {
  const [report, setReport] = useState<CampaignReport | undefined>();
  const [error, setError] = useState<unknown>();
  const [updatedAt, setUpdatedAt] = useState<number | undefined>();
  const tenant = props.tenant.id;

  const load = async () => {
    try {
      setReport(await campaignApi.report(tenant, props.id));
      setError(undefined);
      setUpdatedAt(Date.now());
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => {
    setReport(undefined);
    void load();
  }, [tenant, props.id]);

  const c = report?.campaign;
  const watching =
    c !== undefined &&
    (isMoving(c.state) || (c.state === "completed" && Date.now() - c.updatedAt < SETTLING_MS));
  useEffect(() => {
    if (!watching) return;
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [tenant, props.id, watching]);

  const changed = (next?: Campaign) => {
    if (next !== undefined && report !== undefined) setReport({ ...report, campaign: next });
    void load();
  };

  return (
    <div class="page campaign">
      <a class="back-link" href={hrefOf({ page: "campaigns", tenant })}>
        ← All campaigns of {tenant}
      </a>
      <ErrorAlert error={error} onDismiss={() => setError(undefined)} />
      {report === undefined || c === undefined ? (
        error === undefined && <Spinner label="Loading the report…" />
      ) : (
        <>
          <div class="page-head">
            <div class="campaign-title">
              <h1>{c.name}</h1>
              <span aria-live="polite">
                <StateBadge state={c.state} reason={c.stateReason} />
              </span>
            </div>
            <button type="button" class="button" onClick={() => void load()}>
              Refresh
            </button>
          </div>
          <Summary campaign={c} />
          {props.tenant.role === "admin" ? (
            <CampaignActions campaign={c} onChanged={changed} />
          ) : (
            <Notice>Starting, pausing and cancelling campaigns needs the admin role on {tenant}.</Notice>
          )}
          <Figures report={report} />
          <Breakdowns report={report} />
          {updatedAt !== undefined && (
            <p class="muted updated">
              Updated {formatTime(updatedAt)}
              {watching ? `; again every ${REFRESH_MS / 1000} s` : ""}
            </p>
          )}
        </>
      )}
    </div>
  );
}
