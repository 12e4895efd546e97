// Live updates: one EventSource on `/api/v1/events`, its events passed to whoever listens, and its
// state for the "live" indicator. EventSource reconnects by itself after a dropped connection; when
// the server refuses it outright (the stream closes), we retry after a pause and check the session.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, eventsUrl, LIVE_EVENT_NAMES, type LiveEvent } from "./api";

export type LiveState = "connecting" | "live" | "reconnecting";

type Listener = (event: LiveEvent) => void;
const listeners = new Set<Listener>();
const stateListeners = new Set<(state: LiveState) => void>();
let state: LiveState = "connecting";
let source: EventSource | undefined;
let retry: ReturnType<typeof setTimeout> | undefined;

function setState(next: LiveState) {
  if (state === next) return;
  state = next;
  for (const listener of stateListeners) listener(next);
}

/** Opens the stream for one tenant (undefined: every tenant of mine); closes any other. */
export function connectLive(tenant: string | undefined): void {
  disconnectLive();
  setState("connecting");
  const events = new EventSource(eventsUrl(tenant), { withCredentials: true });
  source = events;
  events.onopen = () => setState("live");
  events.onerror = () => {
    if (source !== events) return;
    setState("reconnecting");
    if (events.readyState === EventSource.CLOSED) {
      // Refused (not a dropped connection): a 401 logs out through the API client; else try again.
      void api.session().catch(() => undefined);
      retry = setTimeout(() => connectLive(tenant), 5000);
    }
  };
  for (const name of LIVE_EVENT_NAMES) {
    events.addEventListener(name, (message) => {
      let data: unknown;
      try {
        data = JSON.parse((message as MessageEvent<string>).data);
      } catch {
        return;
      }
      if (data === null || typeof data !== "object") return;
      const event = { name, data } as LiveEvent;
      for (const listener of listeners) listener(event);
    });
  }
}

export function disconnectLive(): void {
  if (retry !== undefined) clearTimeout(retry);
  retry = undefined;
  source?.close();
  source = undefined;
}

/** Calls `handler` on every live event while the component is mounted (the latest handler). */
export function useLiveEvents(handler: Listener): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const listener: Listener = (event) => ref.current(event);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
}

export function useLiveState(): LiveState {
  const [value, setValue] = useState(state);
  useEffect(() => {
    stateListeners.add(setValue);
    setValue(state);
    return () => {
      stateListeners.delete(setValue);
    };
  }, []);
  return value;
}

/** A function that runs `fn` once, `ms` after the last of a burst of calls. */
export function useDebounced(fn: () => void, ms: number): () => void {
  const fnRef = useRef(fn);
  fnRef.current = fn;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(
    () => () => {
      if (timer.current !== undefined) clearTimeout(timer.current);
    },
    [],
  );
  const ref = useRef(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      fnRef.current();
    }, ms);
  });
  return ref.current;
}
