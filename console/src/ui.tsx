// Small shared pieces: the error alert, delivery ticks, mode badges, the app's context.
import { type ComponentChildren, createContext } from "preact";
import { useContext } from "preact/hooks";
import { ApiError, type Delivery, type Mode, type Operator, type Tenant } from "./api";

export interface AppContextValue {
  operator: Operator;
  tenants: Tenant[];
  /** "" = every tenant of mine. */
  tenant: string;
  /** "" = every number. */
  phoneNumberId: string;
  setScope(tenant: string, phoneNumberId: string): void;
}
export const AppContext = createContext<AppContextValue | undefined>(undefined);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (value === undefined) throw new Error("useApp outside the signed-in app");
  return value;
}

export function messageOf(error: unknown): { message: string; code?: string } {
  if (error instanceof ApiError) return { message: error.message, code: error.code };
  if (error instanceof Error) return { message: error.message };
  return { message: String(error) };
}

/** Errors, plainly: what went wrong, the code for a bug report, and a way to put it away. */
export function ErrorAlert(props: { error: unknown; onDismiss?: () => void }) {
  if (props.error === undefined || props.error === null) return null;
  const { message, code } = messageOf(props.error);
  return (
    <div class="alert" role="alert">
      <span class="alert-text">
        {message}
        {code !== undefined && <code class="alert-code">{code}</code>}
      </span>
      {props.onDismiss !== undefined && (
        <button type="button" class="icon-button" aria-label="Dismiss" onClick={props.onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}

export function Notice(props: { tone?: "info" | "warn"; children: ComponentChildren }) {
  return <div class={`notice notice-${props.tone ?? "info"}`}>{props.children}</div>;
}

const TICK_LABEL: Record<string, string> = {
  sent: "Sent",
  delivered: "Delivered",
  read: "Read",
  played: "Played",
  deleted: "Deleted by the customer",
};

/** ✓ sent, ✓✓ delivered, blue ✓✓ read, ✕ failed (with Meta's reason); a clock until Meta answers. */
export function Ticks(props: { delivery?: Delivery; showReason?: boolean }) {
  const delivery = props.delivery;
  if (delivery === undefined) {
    return (
      <span class="ticks ticks-queued" role="img" aria-label="Queued" title="Queued">
        🕓
      </span>
    );
  }
  if (delivery.status === "failed") {
    const reason = [delivery.errorCode, delivery.errorTitle].filter((x) => x !== undefined).join(" ");
    const label = reason === "" ? "Failed" : `Failed: ${reason}`;
    return (
      <span class="ticks ticks-failed" title={label}>
        <span role="img" aria-label={label}>
          ✕
        </span>
        {props.showReason !== false && (
          <span class="ticks-reason" aria-hidden="true">
            {label}
          </span>
        )}
      </span>
    );
  }
  const label = TICK_LABEL[delivery.status] ?? delivery.status;
  const double = delivery.status !== "sent";
  const blue = delivery.status === "read" || delivery.status === "played";
  return (
    <span class={`ticks${blue ? " ticks-read" : ""}`} role="img" aria-label={label} title={label}>
      {double ? "✓✓" : "✓"}
    </span>
  );
}

const MODE_LABEL: Record<Mode, string> = { bot: "Bot", human: "Human", paused: "Paused" };
export function ModeBadge(props: { mode: Mode }) {
  return <span class={`badge badge-${props.mode}`}>{MODE_LABEL[props.mode] ?? props.mode}</span>;
}

export function Spinner(props: { label?: string }) {
  return (
    <div class="spinner-row" role="status">
      <span class="spinner" aria-hidden="true" />
      {props.label ?? "Loading…"}
    </div>
  );
}

/** Initials on a colour picked from the name, for the list and the chat header. */
export function Avatar(props: { name: string }) {
  const words = props.name
    .replace(/[^\p{L}\p{N} ]/gu, "")
    .trim()
    .split(/\s+/);
  const initials = (
    words.length > 1 ? `${words[0]?.[0] ?? ""}${words[1]?.[0] ?? ""}` : (words[0] ?? "").slice(0, 2)
  )
    .toUpperCase()
    .replace(/^$/, "?");
  let hash = 0;
  for (const char of props.name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 360;
  return (
    <span class="avatar" aria-hidden="true" style={{ background: `hsl(${hash} 45% 38%)` }}>
      {initials}
    </span>
  );
}
