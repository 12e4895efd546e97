// Small charts, drawn as inline SVG at the width they are given: grouped bars over time, a line over
// time, and horizontal bars. Each has a text summary for screen readers and a tooltip per point.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";

export interface Series {
  label: string;
  /** A CSS colour. */
  color: string;
  values: number[];
}

function useWidth(): [{ current: HTMLDivElement | null }, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** 1, 2, 5 × 10^n at or above `max`, split in `steps`. */
function niceMax(max: number, steps = 4): number {
  if (max <= 0) return 1;
  const raw = max / steps;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * power).find((s) => s >= raw) ?? raw;
  return step * steps;
}

const PAD = { top: 10, right: 8, bottom: 22 };

/** Room for the longest y-axis label. */
function padLeft(max: number, format: (v: number) => string): number {
  const longest = Math.max(...[0, max / 2, max].map((v) => format(v).length));
  return Math.max(28, Math.ceil(longest * 6.6) + 12);
}

function Axes(props: {
  width: number;
  height: number;
  max: number;
  labels: string[];
  format: (v: number) => string;
  everyLabel: number;
  slot: number;
  left: number;
}) {
  const { width, height, max, left } = props;
  const plotH = height - PAD.top - PAD.bottom;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <g class="axis">
      {ticks.map((t) => {
        const y = PAD.top + plotH * (1 - t);
        return (
          <g key={t}>
            <line
              x1={left}
              x2={width - PAD.right}
              y1={y}
              y2={y}
              class={t === 0 ? "axis-base" : "axis-grid"}
            />
            {(t === 0 || t === 0.5 || t === 1) && (
              <text x={left - 6} y={y + 4} text-anchor="end">
                {props.format(max * t)}
              </text>
            )}
          </g>
        );
      })}
      {props.labels.map((label, index) =>
        index % props.everyLabel === 0 ? (
          <text key={index} x={left + props.slot * (index + 0.5)} y={height - 6} text-anchor="middle">
            {label}
          </text>
        ) : null,
      )}
    </g>
  );
}

function Legend(props: { series: { label: string; color: string }[] }) {
  return (
    <ul class="legend" aria-hidden="true">
      {props.series.map((s) => (
        <li key={s.label}>
          <span class="legend-swatch" style={{ background: s.color }} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

function Frame(props: { label: string; summary: string; children: ComponentChildren; legend?: Series[] }) {
  return (
    <figure class="chart">
      <figcaption class="chart-title">{props.label}</figcaption>
      {props.legend !== undefined && props.legend.length > 1 && <Legend series={props.legend} />}
      {props.children}
      <p class="sr-only">{props.summary}</p>
    </figure>
  );
}

export function BarChart(props: {
  label: string;
  labels: string[];
  series: Series[];
  height?: number;
  format?: (v: number) => string;
}) {
  const [ref, width] = useWidth();
  const height = props.height ?? 180;
  const format = props.format ?? ((v: number) => String(Math.round(v)));
  const count = props.labels.length;
  const max = niceMax(Math.max(0, ...props.series.flatMap((s) => s.values)));
  const left = padLeft(max, format);
  const plotW = Math.max(0, width - left - PAD.right);
  const plotH = height - PAD.top - PAD.bottom;
  const slot = count === 0 ? 0 : plotW / count;
  const groupW = slot * 0.78;
  const barW = props.series.length === 0 ? 0 : groupW / props.series.length;
  const everyLabel = Math.max(1, Math.ceil(count / Math.max(1, Math.floor(plotW / 44))));
  const totals = props.series
    .map((s) => `${s.label} ${format(s.values.reduce((a, b) => a + b, 0))}`)
    .join(", ");
  return (
    <Frame label={props.label} summary={`In all: ${totals}.`} legend={props.series}>
      <div ref={ref} class="chart-box">
        {width > 0 && (
          <svg width={width} height={height} aria-hidden="true">
            <Axes
              width={width}
              height={height}
              max={max}
              labels={props.labels}
              format={format}
              everyLabel={everyLabel}
              slot={slot}
              left={left}
            />
            {props.labels.map((label, index) =>
              props.series.map((s, si) => {
                const value = s.values[index] ?? 0;
                const h = (value / max) * plotH;
                return (
                  <rect
                    key={`${s.label}-${label}-${index}`}
                    x={left + slot * index + (slot - groupW) / 2 + barW * si}
                    y={PAD.top + plotH - h}
                    width={Math.max(1, barW - 1)}
                    height={Math.max(0, h)}
                    rx={Math.min(2, barW / 3)}
                    fill={s.color}
                  >
                    <title>{`${label} · ${s.label}: ${format(value)}`}</title>
                  </rect>
                );
              }),
            )}
          </svg>
        )}
      </div>
    </Frame>
  );
}

export function LineChart(props: {
  label: string;
  labels: string[];
  series: Series[];
  height?: number;
  format?: (v: number) => string;
  /** A fixed top of the scale (1 for shares). */
  max?: number;
  summary: string;
}) {
  const [ref, width] = useWidth();
  const height = props.height ?? 160;
  const format = props.format ?? ((v: number) => String(v));
  const count = props.labels.length;
  const max = props.max ?? niceMax(Math.max(0, ...props.series.flatMap((s) => s.values)));
  const left = padLeft(max, format);
  const plotW = Math.max(0, width - left - PAD.right);
  const plotH = height - PAD.top - PAD.bottom;
  const slot = count === 0 ? 0 : plotW / count;
  const everyLabel = Math.max(1, Math.ceil(count / Math.max(1, Math.floor(plotW / 44))));
  const x = (i: number) => left + slot * (i + 0.5);
  const y = (v: number) => PAD.top + plotH * (1 - Math.min(1, v / max));
  return (
    <Frame label={props.label} summary={props.summary} legend={props.series}>
      <div ref={ref} class="chart-box">
        {width > 0 && (
          <svg width={width} height={height} aria-hidden="true">
            <Axes
              width={width}
              height={height}
              max={max}
              labels={props.labels}
              format={format}
              everyLabel={everyLabel}
              slot={slot}
              left={left}
            />
            {props.series.map((s) => {
              const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
              const area = `${x(0)},${y(0)} ${points} ${x(s.values.length - 1)},${y(0)}`;
              return (
                <g key={s.label}>
                  <polygon points={area} fill={s.color} opacity="0.12" />
                  <polyline
                    points={points}
                    fill="none"
                    stroke={s.color}
                    stroke-width="2"
                    stroke-linejoin="round"
                  />
                  {s.values.map((v, i) => (
                    <circle key={i} cx={x(i)} cy={y(v)} r={count > 48 ? 0 : 2.5} fill={s.color}>
                      <title>{`${props.labels[i] ?? ""} · ${s.label}: ${format(v)}`}</title>
                    </circle>
                  ))}
                </g>
              );
            })}
          </svg>
        )}
      </div>
    </Frame>
  );
}

/** Horizontal bars as a list: each row's text reads on its own; the bar is decoration. */
export function HBars(props: {
  label: string;
  items: { key: string; label: string; detail?: string; value: number }[];
  color?: string;
  empty: string;
  format?: (v: number) => string;
}) {
  const max = Math.max(1, ...props.items.map((i) => i.value));
  const format = props.format ?? ((v: number) => String(v));
  return (
    <figure class="chart">
      <figcaption class="chart-title">{props.label}</figcaption>
      {props.items.length === 0 ? (
        <p class="chart-empty">{props.empty}</p>
      ) : (
        <ul class="hbars">
          {props.items.map((item) => (
            <li key={item.key} class="hbar">
              <span class="hbar-label">
                {item.label}
                {item.detail !== undefined && <span class="hbar-detail"> {item.detail}</span>}
              </span>
              <span class="hbar-track" aria-hidden="true">
                <span
                  class="hbar-fill"
                  style={{
                    width: `${(item.value / max) * 100}%`,
                    background: props.color ?? "var(--accent)",
                  }}
                />
              </span>
              <span class="hbar-value">{format(item.value)}</span>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
