// The inbox: conversations by view (tabs), tenant and number, searchable, paged with "load more";
// the open conversation beside it on a desktop, in its place on a phone.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, type Conversation, type View } from "./api";
import { ConversationView } from "./conversation";
import {
  customerLabel,
  formatDuration,
  formatListTime,
  hrefOf,
  readStored,
  useNow,
  writeStored,
} from "./lib";
import { useDebounced, useLiveEvents } from "./live";
import { Avatar, ErrorAlert, ModeBadge, Spinner, useApp } from "./ui";

export const VIEWS: { view: View; label: string; empty: string }[] = [
  { view: "needs_human", label: "Needs a human", empty: "Nobody is waiting for a human. The bot has it." },
  { view: "mine", label: "Mine", empty: "No conversation is assigned to you." },
  { view: "bot", label: "Bot", empty: "No conversation is with the bot." },
  { view: "paused", label: "Paused", empty: "No conversation is paused." },
  { view: "unread", label: "Unread", empty: "You're all caught up." },
  { view: "all", label: "All", empty: "No conversations yet." },
];

const PAGE = 50;

export function ScopePicker(props: { allowAll?: boolean; idPrefix: string; showNumber?: boolean }) {
  const app = useApp();
  const numbers =
    app.tenant === ""
      ? app.tenants.flatMap((t) => t.phoneNumberIds)
      : (app.tenants.find((t) => t.id === app.tenant)?.phoneNumberIds ?? []);
  return (
    <div class="scope">
      <label class="field">
        <span class="field-label">Tenant</span>
        <select
          id={`${props.idPrefix}-tenant`}
          value={app.tenant}
          onChange={(e) => app.setScope(e.currentTarget.value, "")}
        >
          {props.allowAll !== false && <option value="">All tenants</option>}
          {app.tenants.map((t) => (
            <option key={t.id} value={t.id}>
              {t.id}
            </option>
          ))}
        </select>
      </label>
      {props.showNumber !== false && (
        <label class="field">
          <span class="field-label">Number</span>
          <select
            id={`${props.idPrefix}-number`}
            value={app.phoneNumberId}
            onChange={(e) => app.setScope(app.tenant, e.currentTarget.value)}
          >
            <option value="">All numbers</option>
            {numbers.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

function ViewTabs(props: { view: View; onChange: (view: View) => void }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  useEffect(() => {
    // On a phone the chips scroll sideways: keep the chosen one in sight.
    const index = VIEWS.findIndex((v) => v.view === props.view);
    refs.current[index]?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [props.view]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    let target = index + step;
    if (event.key === "Home") target = 0;
    if (event.key === "End") target = VIEWS.length - 1;
    if (target === index) return;
    event.preventDefault();
    const next = VIEWS[(target + VIEWS.length) % VIEWS.length];
    if (next === undefined) return;
    props.onChange(next.view);
    refs.current[(target + VIEWS.length) % VIEWS.length]?.focus();
  };
  return (
    <div class="tabs" role="tablist" aria-label="Views">
      {VIEWS.map((v, index) => (
        <button
          key={v.view}
          ref={(el) => {
            refs.current[index] = el;
          }}
          type="button"
          role="tab"
          id={`tab-${v.view}`}
          aria-selected={props.view === v.view}
          aria-controls="conversation-list"
          tabIndex={props.view === v.view ? 0 : -1}
          class="tab"
          onClick={() => props.onChange(v.view)}
          onKeyDown={(e) => onKeyDown(e, index)}
        >
          {v.label}
        </button>
      ))}
    </div>
  );
}

function ConversationItem(props: { c: Conversation; selected: boolean; now: number; showTenant: boolean }) {
  const { c, now } = props;
  const name = customerLabel(c);
  const last = c.lastMessage;
  return (
    <li>
      <a
        class={`conv${props.selected ? " conv-selected" : ""}${c.unread ? " conv-unread" : ""}`}
        href={hrefOf({ page: "inbox", key: c.conversationKey })}
        data-testid="conversation-item"
        data-key={c.conversationKey}
        aria-current={props.selected ? "page" : undefined}
      >
        <Avatar name={name} />
        <span class="conv-main">
          <span class="conv-top">
            <span class="conv-name">{name}</span>
            <time class="conv-time" dateTime={new Date(c.lastActivityAt).toISOString()}>
              {formatListTime(c.lastActivityAt, now)}
            </time>
          </span>
          <span class="conv-row">
            <span class="conv-preview">
              {last?.direction === "outbound" && (
                <>
                  <span aria-hidden="true">↪ </span>
                  <span class="sr-only">Our reply: </span>
                </>
              )}
              {last === undefined ? "No messages" : (last.preview ?? `[${last.type}]`)}
            </span>
            {c.unread && (
              <span class="unread-dot" role="img" aria-label="Unread">
                ●
              </span>
            )}
          </span>
          <span class="conv-tags">
            <ModeBadge mode={c.mode} />
            {c.awaitingReplySince !== undefined && c.mode === "human" && (
              <span class="waiting">waiting {formatDuration(now - c.awaitingReplySince)}</span>
            )}
            {c.assignedAgent !== undefined && (
              <span class="conv-agent">→ {c.assignedAgentName ?? c.assignedAgent}</span>
            )}
            {props.showTenant && <span class="conv-tenant">{c.tenantId}</span>}
          </span>
        </span>
      </a>
    </li>
  );
}

export function Inbox(props: { openKey?: string }) {
  const app = useApp();
  const now = useNow(15_000);
  const [view, setView] = useState<View>(() => {
    const stored = readStored("ss.view");
    return VIEWS.some((v) => v.view === stored) ? (stored as View) : "needs_human";
  });
  const [search, setSearch] = useState("");
  const [q, setQ] = useState("");
  const [items, setItems] = useState<Conversation[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<unknown>();
  const seq = useRef(0);
  const state = useRef({ items, next });
  state.current = { items, next };

  const params = { tenant: app.tenant, phoneNumberId: app.phoneNumberId, view, q };
  const paramsKey = JSON.stringify(params);

  const refresh = useCallback(
    async (reset: boolean) => {
      const mine = ++seq.current;
      if (reset) setLoading(true);
      try {
        const page = await api.conversations({ ...params, limit: PAGE });
        if (mine !== seq.current) return;
        const previous = state.current;
        if (!reset && previous.items.length > PAGE && page.next !== undefined) {
          // Keep the older pages already loaded: the first page took back what moved to the top.
          const fresh = new Set(page.items.map((c) => c.conversationKey));
          const oldest = page.items.at(-1)?.lastActivityAt ?? 0;
          const kept = previous.items.filter(
            (c) => !fresh.has(c.conversationKey) && c.lastActivityAt <= oldest,
          );
          setItems([...page.items, ...kept]);
        } else {
          setItems(page.items);
          setNext(page.next);
        }
        setError(undefined);
      } catch (e) {
        if (mine === seq.current) setError(e);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    },
    [paramsKey],
  );

  useEffect(() => {
    void refresh(true);
  }, [refresh]);

  const debouncedSearch = useDebounced(() => setQ(search.trim()), 300);
  const debouncedRefresh = useDebounced(() => void refresh(false), 300);
  useLiveEvents(() => debouncedRefresh());

  const loadMore = async () => {
    if (next === undefined) return;
    setLoadingMore(true);
    try {
      const page = await api.conversations({ ...params, limit: PAGE, before: next });
      const have = new Set(items.map((c) => c.conversationKey));
      setItems([...items, ...page.items.filter((c) => !have.has(c.conversationKey))]);
      setNext(page.next);
    } catch (e) {
      setError(e);
    } finally {
      setLoadingMore(false);
    }
  };

  const changeView = (v: View) => {
    setView(v);
    writeStored("ss.view", v);
  };

  const onListKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const links = [...(event.currentTarget as HTMLElement).querySelectorAll<HTMLAnchorElement>("a.conv")];
    const index = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (index < 0) return;
    event.preventDefault();
    links[Math.min(links.length - 1, Math.max(0, index + (event.key === "ArrowDown" ? 1 : -1)))]?.focus();
  };

  const markSeen = (key: string) =>
    setItems((list) =>
      list.map((c) => (c.conversationKey === key && c.unread ? { ...c, unread: false } : c)),
    );

  const current = VIEWS.find((v) => v.view === view);
  return (
    <div class={`inbox${props.openKey !== undefined ? " inbox-open" : ""}`}>
      <section class="list-pane" aria-label="Conversations">
        <div class="list-head">
          <ScopePicker idPrefix="inbox" />
          <label class="field search">
            <span class="sr-only">Search</span>
            <input
              type="search"
              placeholder="Search name, number or text"
              value={search}
              onInput={(e) => {
                setSearch(e.currentTarget.value);
                debouncedSearch();
              }}
            />
          </label>
          <ViewTabs view={view} onChange={changeView} />
        </div>
        <div
          class="list-body"
          id="conversation-list"
          role="tabpanel"
          aria-labelledby={`tab-${view}`}
          onKeyDown={onListKeyDown}
        >
          <ErrorAlert error={error} onDismiss={() => setError(undefined)} />
          {loading && items.length === 0 ? (
            <Spinner label="Loading conversations…" />
          ) : items.length === 0 ? (
            <p class="empty">{q !== "" ? `Nothing matches “${q}”.` : current?.empty}</p>
          ) : (
            <ul class="conv-list">
              {items.map((c) => (
                <ConversationItem
                  key={c.conversationKey}
                  c={c}
                  now={now}
                  selected={c.conversationKey === props.openKey}
                  showTenant={app.tenant === "" && app.tenants.length > 1}
                />
              ))}
            </ul>
          )}
          {next !== undefined && (
            <button
              type="button"
              class="button button-quiet load-more"
              onClick={loadMore}
              disabled={loadingMore}
            >
              {loadingMore ? "Loading…" : "Load more"}
            </button>
          )}
        </div>
      </section>
      <section class="conv-pane" aria-label="Conversation">
        {props.openKey === undefined ? (
          <div class="pane-empty">
            <p>Pick a conversation to read it and answer.</p>
          </div>
        ) : (
          <ConversationView key={props.openKey} conversationKey={props.openKey} onSeen={markSeen} />
        )}
      </section>
    </div>
  );
}
