// Hash routing, formatting and small hooks shared by the pages.
import { useEffect, useState } from "preact/hooks";
import type { Conversation } from "./api";

export type Route =
  | { page: "inbox"; key?: string }
  | { page: "simulator" }
  | { page: "dashboard" }
  /** No tenant: the list of the scope's tenant; `id` "new": the form; else one campaign's report. */
  | { page: "campaigns"; tenant?: string; id?: string }
  | { page: "login" };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/");
  switch (parts[0]) {
    case "simulator":
      return { page: "simulator" };
    case "dashboard":
      return { page: "dashboard" };
    case "campaigns": {
      const [tenant, id] = parts.slice(1, 3).map(decodePart);
      if (tenant === undefined || tenant === "") return { page: "campaigns" };
      return id === undefined || id === ""
        ? { page: "campaigns", tenant }
        : { page: "campaigns", tenant, id };
    }
    case "login":
      return { page: "login" };
    default: {
      const raw = parts.slice(1).join("/");
      if (raw === "") return { page: "inbox" };
      try {
        return { page: "inbox", key: decodeURIComponent(raw) };
      } catch {
        return { page: "inbox" };
      }
    }
  }
}

export function hrefOf(route: Route): string {
  if (route.page === "inbox") {
    return route.key === undefined ? "#/inbox" : `#/inbox/${encodeURIComponent(route.key)}`;
  }
  if (route.page === "campaigns" && route.tenant !== undefined) {
    const tail = route.id === undefined ? "" : `/${encodeURIComponent(route.id)}`;
    return `#/campaigns/${encodeURIComponent(route.tenant)}${tail}`;
  }
  return `#/${route.page}`;
}

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return "";
  }
}

export function navigate(route: Route): void {
  const href = hrefOf(route);
  if (location.hash !== href) location.hash = href;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", update);
    return () => removeEventListener("hashchange", update);
  }, []);
  return route;
}

/** The time now, refreshed every `everyMs` so relative times move on. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** "45 s", "4 min", "2 h 5 min", "3 days". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return days === 1 ? "1 day" : `${days} days`;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const dayFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short" });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export const formatTime = (at: number) => timeFormat.format(at);
export const formatFull = (at: number) => fullFormat.format(at);

/** A list's time: the clock today, else the day. */
export function formatListTime(at: number, now: number): string {
  return sameDay(at, now) ? timeFormat.format(at) : dayFormat.format(at);
}

export function sameDay(a: number, b: number): boolean {
  const x = new Date(a);
  const y = new Date(b);
  return x.getFullYear() === y.getFullYear() && x.getMonth() === y.getMonth() && x.getDate() === y.getDate();
}

export function formatDay(at: number, now: number): string {
  if (sameDay(at, now)) return "Today";
  if (sameDay(at, now - 86_400_000)) return "Yesterday";
  return new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short" }).format(at);
}

export function formatUsd(value: number): string {
  if (value === 0) return "$0";
  if (Math.abs(value) < 0.01) return `$${value.toFixed(4)}`;
  return `$${value.toFixed(2)}`;
}

export const formatCount = (value: number) => new Intl.NumberFormat().format(value);

/** A wa_id as a person reads it: +234 803 123 4567. */
export function formatPhone(id: string | undefined): string {
  if (id === undefined) return "";
  if (!/^\d{8,15}$/.test(id)) return id;
  if (id.startsWith("234") && id.length === 13) {
    return `+234 ${id.slice(3, 6)} ${id.slice(6, 9)} ${id.slice(9)}`;
  }
  return `+${id}`;
}

export function readStored(key: string): string | undefined {
  try {
    return localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}
export function writeStored(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or full storage: remembering is a nicety.
  }
}

/** A record's field, when the value is an object. */
export function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[name] : undefined;
}
export function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
export function num(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The customer as the list and the header name them: profile name, else number, else the key. */
export function customerLabel(
  c: Pick<Conversation, "customerName" | "customerId" | "conversationKey">,
): string {
  return c.customerName ?? (c.customerId !== undefined ? formatPhone(c.customerId) : c.conversationKey);
}
