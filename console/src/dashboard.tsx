// The dashboard: what came in and went out, how much the router answered without the LLM and what the
// LLM cost, Meta's delivery errors, queues, the handoff queue, and a banner when Meta goes quiet.
import { useEffect, useState } from "preact/hooks";
import { api, type Metrics, type SetAsideTurn } from "./api";
import { BarChart, HBars, LineChart } from "./charts";
import { ScopePicker } from "./inbox";
import {
  formatCount,
  formatDuration,
  formatFull,
  formatTime,
  formatUsd,
  hrefOf,
  readStored,
  writeStored,
} from "./lib";
import { useDebounced, useLiveEvents } from "./live";
import { ErrorAlert, Spinner, useApp } from "./ui";

const PERIODS = [
  { hours: 6, label: "Last 6 hours" },
  { hours: 24, label: "Last 24 hours" },
  { hours: 72, label: "Last 3 days" },
  { hours: 168, label: "Last 7 days" },
];

const COLORS = {
  inbound: "#2563eb",
  outbound: "#0f766e",
  turns: "#c2410c",
  share: "#15803d",
  spend: "#7c3aed",
};

export function Stat(props: { label: string; value: string; detail?: string; tone?: "warn" }) {
  return (
    <div class={`stat${props.tone === "warn" ? " stat-warn" : ""}`}>
      <p class="stat-label">{props.label}</p>
      <p class="stat-value">{props.value}</p>
      {props.detail !== undefined && <p class="stat-detail">{props.detail}</p>}
    </div>
  );
}

const hourFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric" });
const dayHourFormat = new Intl.DateTimeFormat(undefined, { weekday: "short", hour: "numeric" });

const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);

export function Dashboard() {
  const app = useApp();
  const [hours, setHours] = useState(() => Number(readStored("ss.hours") ?? 24) || 24);
  const [metrics, setMetrics] = useState<Metrics | undefined>();
  const [setAside, setSetAside] = useState<SetAsideTurn[]>([]);
  const [error, setError] = useState<unknown>();
  const [updatedAt, setUpdatedAt] = useState<number | undefined>();

  const load = async () => {
    try {
      const tenant = app.tenant === "" ? undefined : app.tenant;
      const [figures, aside] = await Promise.all([api.metrics(tenant, hours), api.setAsideTurns(tenant)]);
      setMetrics(figures);
      setSetAside(aside.items);
      setError(undefined);
      setUpdatedAt(Date.now());
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => {
    setMetrics(undefined);
    void load();
    const timer = setInterval(() => void load(), 30_000);
    return () => clearInterval(timer);
  }, [app.tenant, hours]);
  const refresh = useDebounced(() => void load(), 5000);
  useLiveEvents(() => refresh());

  const m = metrics;
  const multiDay = hours > 24;
  const labelOf = (at: number) => (multiDay ? dayHourFormat.format(at) : hourFormat.format(at));
  const labels = m?.buckets.map((b) => labelOf(b.at)) ?? [];
  const perBucket =
    m === undefined ? "" : m.bucketMs === 3_600_000 ? "per hour" : `per ${formatDuration(m.bucketMs)}`;

  return (
    <div class="page dashboard">
      <div class="page-head">
        <h1>Dashboard</h1>
        <div class="page-tools">
          <ScopePicker idPrefix="dash" showNumber={false} />
          <label class="field">
            <span class="field-label">Period</span>
            <select
              value={hours}
              onChange={(e) => {
                const value = Number(e.currentTarget.value);
                setHours(value);
                writeStored("ss.hours", String(value));
              }}
            >
              {PERIODS.map((p) => (
                <option key={p.hours} value={p.hours}>
                  {p.label}
                </option>
              ))}
            </select>
          </label>
          <button type="button" class="button" onClick={() => void load()}>
            Refresh
          </button>
        </div>
      </div>
      <ErrorAlert error={error} onDismiss={() => setError(undefined)} />
      {m === undefined ? (
        error === undefined && <Spinner label="Loading figures…" />
      ) : (
        <>
          {m.metaSilent.silent && (
            <div class="banner" role="alert">
              <strong>Meta has gone quiet.</strong> No webhook for{" "}
              {formatDuration(m.metaSilent.minutes * 60_000)}
              {m.metaSilent.lastWebhookAt !== undefined &&
                ` (last at ${formatFull(m.metaSilent.lastWebhookAt)})`}
              . Check the app's webhook subscription and the phone number's status in Meta's dashboard.
            </div>
          )}
          <div class="stats">
            <a
              class={`stat stat-big${m.handoffs.waiting > 0 ? " stat-warn" : ""}`}
              href={hrefOf({ page: "inbox" })}
            >
              <p class="stat-label">Waiting for a human</p>
              <p class="stat-value">{formatCount(m.handoffs.waiting)}</p>
              <p class="stat-detail">
                {m.handoffs.oldestWaitMs !== undefined && m.handoffs.waiting > 0
                  ? `longest wait ${formatDuration(m.handoffs.oldestWaitMs)}`
                  : "nobody waiting"}
              </p>
            </a>
            <Stat
              label="Messages in / out"
              value={`${formatCount(m.totals.inbound)} / ${formatCount(m.totals.outbound)}`}
              detail={`${formatCount(m.totals.turns)} bot turns`}
            />
            <Stat
              label="Answered locally"
              value={`${Math.round(m.totals.localShare * 100)}%`}
              detail={`${formatCount(m.totals.localTurns)} local · ${formatCount(m.totals.agentTurns)} LLM turns`}
            />
            <Stat
              label="LLM spend"
              value={formatUsd(m.totals.costUsd)}
              detail={`saved ≈ ${formatUsd(m.totals.savedUsd)} · ${formatCount(m.totals.promptTokens + m.totals.completionTokens)} tokens`}
            />
            <Stat
              label="Reply time p50 / p99"
              value={
                m.latency.endToEndMs === null
                  ? "—"
                  : `${ms(m.latency.endToEndMs.p50)} / ${ms(m.latency.endToEndMs.p99)}`
              }
              detail={
                m.latency.webhookAckMs === null
                  ? "webhook ack: no data"
                  : `webhook ack ${ms(m.latency.webhookAckMs.p50)} / ${ms(m.latency.webhookAckMs.p99)}`
              }
            />
          </div>
          <div class="cards">
            <section class="card card-wide">
              <BarChart
                label={`Messages and turns ${perBucket}`}
                labels={labels}
                series={[
                  { label: "Inbound", color: COLORS.inbound, values: m.buckets.map((b) => b.inbound) },
                  { label: "Outbound", color: COLORS.outbound, values: m.buckets.map((b) => b.outbound) },
                  { label: "Bot turns", color: COLORS.turns, values: m.buckets.map((b) => b.turns) },
                ]}
              />
            </section>
            <section class="card">
              <LineChart
                label="Answered without the LLM"
                labels={labels}
                max={1}
                format={(v) => `${Math.round(v * 100)}%`}
                summary={`Overall ${Math.round(m.totals.localShare * 100)}% of turns answered locally.`}
                series={[
                  {
                    label: "Local share",
                    color: COLORS.share,
                    values: m.buckets.map((b) => (b.turns === 0 ? 0 : b.localTurns / b.turns)),
                  },
                ]}
              />
            </section>
            <section class="card">
              <LineChart
                label={`LLM spend ${perBucket}`}
                labels={labels}
                format={formatUsd}
                summary={`${formatUsd(m.totals.costUsd)} in all.`}
                series={[{ label: "Spend", color: COLORS.spend, values: m.buckets.map((b) => b.costUsd) }]}
              />
            </section>
            <section class="card">
              <HBars
                label="Meta delivery errors by code"
                color="#b91c1c"
                empty="No failed deliveries in this period."
                items={m.deliveryFailures.map((f) => ({
                  key: String(f.code),
                  label: String(f.code),
                  detail: f.title,
                  value: f.count,
                }))}
              />
            </section>
            <section class="card">
              <HBars
                label="Queue depth"
                empty="No queues reported."
                items={m.queues.map((q) => ({
                  key: q.name,
                  label: q.name,
                  detail: q.depth > 0 ? `oldest ${formatDuration(q.oldestAgeMs)}` : undefined,
                  value: q.depth,
                }))}
              />
            </section>
            <section class="card">
              <h2 class="chart-title">Turns set aside</h2>
              {setAside.length === 0 ? (
                <p class="muted">No turn failed too often: nothing to look at.</p>
              ) : (
                <ul class="aside-list">
                  {setAside.map((turn) => (
                    <li key={turn.turnId}>
                      <a href={hrefOf({ page: "inbox", key: turn.conversationKey })}>
                        {turn.firstText ?? turn.conversationKey}
                      </a>
                      <span class="muted">
                        {" "}
                        · {turn.attempts} runs · {turn.reason} · {formatTime(turn.setAsideAt)}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>
          {updatedAt !== undefined && <p class="muted updated">Updated {formatTime(updatedAt)}</p>}
        </>
      )}
    </div>
  );
}
