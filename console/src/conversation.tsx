// One conversation: its messages (with ticks, the bot's turns and the operators' notes) and what an
// operator can do with it: take over, reply (with quick replies), send a template, note, hand back.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, type ConversationDetail, type Message, type Mode, type Note, type Turn } from "./api";
import { Composer, NoteForm, TemplatePicker } from "./composer";
import {
  customerLabel,
  formatDay,
  formatDuration,
  formatFull,
  formatPhone,
  formatTime,
  hrefOf,
  useNow,
} from "./lib";
import { useDebounced, useLiveEvents, useLiveState } from "./live";
import { InboundContent, OutboundContent, TurnDetails } from "./message";
import { Avatar, ErrorAlert, ModeBadge, Spinner, Ticks, useApp } from "./ui";

type TimelineItem =
  | { kind: "day"; at: number }
  | { kind: "message"; message: Message; turn?: Turn }
  | { kind: "note"; note: Note }
  | { kind: "turn"; turn: Turn };

function messageId(m: Message): string {
  return (
    m.wamid ?? (m.turnId !== undefined ? `${m.turnId}:${m.part ?? 0}` : `${m.direction}:${m.at}:${m.type}`)
  );
}

/** Oldest first: messages, each turn's details after its last message, notes and turns that sent nothing. */
export function timeline(messages: Message[], turns: Turn[], notes: Note[], complete: boolean, now: number) {
  const chronological = [...messages].sort((a, b) => a.at - b.at || (a.part ?? 0) - (b.part ?? 0));
  const oldest = chronological[0]?.at ?? 0;
  const turnsById = new Map(turns.map((t) => [t.turnId, t]));
  const lastOfTurn = new Map<string, Message>();
  for (const m of chronological) if (m.turnId !== undefined) lastOfTurn.set(m.turnId, m);
  const entries: { at: number; item: TimelineItem }[] = chronological.map((message) => ({
    at: message.at,
    item: {
      kind: "message",
      message,
      turn:
        message.turnId !== undefined && lastOfTurn.get(message.turnId) === message
          ? turnsById.get(message.turnId)
          : undefined,
    },
  }));
  for (const turn of turns) {
    if (!lastOfTurn.has(turn.turnId) && (complete || turn.at >= oldest)) {
      entries.push({ at: turn.at, item: { kind: "turn", turn } });
    }
  }
  for (const note of notes) {
    if (complete || note.at >= oldest) entries.push({ at: note.at, item: { kind: "note", note } });
  }
  entries.sort((a, b) => a.at - b.at);
  const items: TimelineItem[] = [];
  let day = "";
  for (const entry of entries) {
    const label = formatDay(entry.at, now);
    if (label !== day) {
      items.push({ kind: "day", at: entry.at });
      day = label;
    }
    items.push(entry.item);
  }
  return items;
}

function MessageItem(props: { message: Message; turn?: Turn }) {
  const m = props.message;
  const outbound = m.direction === "outbound";
  const byOperator = outbound && m.sentBy !== undefined;
  return (
    <li
      class={`msg ${outbound ? "msg-out" : "msg-in"}${byOperator ? " msg-operator" : ""}`}
      data-testid="message"
      data-direction={m.direction}
    >
      <div class="bubble">
        {outbound && (
          <p class="msg-sender">
            {byOperator ? (
              <>
                {m.sentByName ?? m.sentBy} <span class="sender-chip">operator</span>
              </>
            ) : (
              "Bot"
            )}
          </p>
        )}
        {outbound ? <OutboundContent message={m} /> : <InboundContent message={m} />}
        <span class="msg-foot">
          <time dateTime={new Date(m.at).toISOString()} title={formatFull(m.at)}>
            {formatTime(m.at)}
          </time>
          {outbound && <Ticks delivery={m.delivery} />}
        </span>
      </div>
      {props.turn !== undefined && <TurnDetails turn={props.turn} />}
    </li>
  );
}

function NoteItem(props: { note: Note }) {
  const n = props.note;
  return (
    <li class="note" data-testid="note">
      <p class="note-head">
        <span aria-hidden="true">🔒 </span>Internal note · {n.operatorName ?? n.operatorId} ·{" "}
        <time dateTime={new Date(n.at).toISOString()}>{formatTime(n.at)}</time>
      </p>
      <p class="note-text">{n.text}</p>
    </li>
  );
}

export function ConversationView(props: { conversationKey: string; onSeen?: (key: string) => void }) {
  const key = props.conversationKey;
  const app = useApp();
  const me = app.operator;
  const now = useNow(30_000);
  const live = useLiveState();
  const [detail, setDetail] = useState<ConversationDetail | undefined>();
  const [older, setOlder] = useState<{ items: Message[]; next?: string; loaded: boolean }>({
    items: [],
    loaded: false,
  });
  const [error, setError] = useState<unknown>();
  const [actionError, setActionError] = useState<unknown>();
  const [busy, setBusy] = useState<string | undefined>();
  const [noteOpen, setNoteOpen] = useState(false);
  const [templateOpen, setTemplateOpen] = useState(false);
  const [assignable, setAssignable] = useState<{ id: string; name: string }[]>([]);
  const [announce, setAnnounce] = useState("");
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = async () => {
    try {
      const next = await api.conversation(key);
      setDetail(next);
      setError(undefined);
    } catch (e) {
      setError(e);
    }
  };

  useEffect(() => {
    void load();
    void api
      .seen(key)
      .then(() => props.onSeen?.(key))
      .catch(() => undefined);
  }, []);

  // Who may be assigned: the operators of the conversation's tenant, read once it is known.
  const tenantId = detail?.conversation.tenantId;
  useEffect(() => {
    if (tenantId === undefined) return;
    void api
      .assignable(tenantId)
      .then((list) => setAssignable(list.items))
      .catch(() => setAssignable([]));
  }, [tenantId]);

  // Once it has loaded, move focus to the conversation's name (a keyboard user lands in it).
  const focused = useRef(false);
  useEffect(() => {
    if (detail === undefined || focused.current) return;
    focused.current = true;
    heading.current?.focus({ preventScroll: true });
  }, [detail]);

  const reload = useDebounced(() => void load(), 150);
  const markSeen = useDebounced(() => void api.seen(key).catch(() => undefined), 1000);
  useLiveEvents((event) => {
    const data = event.data;
    if ("conversationKey" in data && data.conversationKey === key) {
      reload();
      if (event.name === "message" && event.data.direction === "inbound" && !document.hidden) markSeen();
    } else if (
      event.name === "status" &&
      event.data.conversationKey === undefined &&
      detail?.messages.some((m) => m.wamid === event.data.wamid)
    ) {
      reload();
    }
  });
  // Without the event stream, look again now and then.
  useEffect(() => {
    if (live === "live") return;
    const timer = setInterval(() => void load(), 10_000);
    return () => clearInterval(timer);
  }, [live]);

  const messages = detail === undefined ? [] : dedupe([...detail.messages, ...older.items]);
  const moreCursor = older.loaded ? older.next : detail?.nextMessages;
  const items =
    detail === undefined ? [] : timeline(messages, detail.turns, detail.notes, moreCursor === undefined, now);
  const lastId = messages[0] === undefined ? "" : messageId(messages[0]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el !== null && stick.current) el.scrollTop = el.scrollHeight;
  }, [lastId, items.length]);

  const loadOlder = async () => {
    if (moreCursor === undefined) return;
    const el = scroller.current;
    const fromBottom = el === null ? 0 : el.scrollHeight - el.scrollTop;
    setBusy("older");
    try {
      const page = await api.olderMessages(key, moreCursor);
      stick.current = false;
      setOlder({ items: [...older.items, ...page.items], next: page.next, loaded: true });
      requestAnimationFrame(() => {
        if (el !== null) el.scrollTop = el.scrollHeight - fromBottom;
      });
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(undefined);
    }
  };

  const act = async (
    name: string,
    run: () => Promise<{ conversation: ConversationDetail["conversation"] }>,
  ) => {
    setBusy(name);
    setActionError(undefined);
    try {
      const { conversation } = await run();
      setDetail((d) => (d === undefined ? d : { ...d, conversation }));
      setAnnounce(`${name}: done`);
      void load();
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(undefined);
    }
  };
  const setMode = (mode: Mode, label: string) => act(label, () => api.setMode(key, mode));

  if (detail === undefined) {
    return (
      <div class="conv-view">
        <div class="conv-head">
          <a class="back" href={hrefOf({ page: "inbox" })} aria-label="Back to conversations">
            ←
          </a>
          <h2 class="conv-title" ref={heading} tabIndex={-1}>
            Conversation
          </h2>
        </div>
        <div class="conv-scroll">{error === undefined ? <Spinner /> : <ErrorAlert error={error} />}</div>
      </div>
    );
  }

  const c = detail.conversation;
  const name = customerLabel(c);
  const mineNow = c.mode === "human" && c.assignedAgent === me.id;
  const assignee =
    c.assignedAgent === undefined
      ? undefined
      : c.assignedAgent === me.id
        ? "you"
        : (c.assignedAgentName ?? c.assignedAgent);
  const windowText = detail.window.open
    ? detail.window.closesAt !== undefined
      ? `Window open · ${formatDuration(detail.window.closesAt - now)} left`
      : "Window open"
    : "24-hour window closed";

  return (
    <div class="conv-view">
      <div class="conv-head">
        <a class="back" href={hrefOf({ page: "inbox" })} aria-label="Back to conversations">
          ←
        </a>
        <Avatar name={name} />
        <div class="conv-head-main">
          <h2 class="conv-title" ref={heading} tabIndex={-1}>
            {name}
          </h2>
          <p class="conv-sub">
            {c.customerName !== undefined && c.customerId !== undefined && `${formatPhone(c.customerId)} · `}
            {c.tenantId} · {c.phoneNumberId}
          </p>
        </div>
        <div class="conv-state">
          <ModeBadge mode={c.mode} />
          {assignee !== undefined && <span class="conv-assignee">Assigned to {assignee}</span>}
          <span class={`window ${detail.window.open ? "window-open" : "window-closed"}`}>{windowText}</span>
        </div>
      </div>

      <fieldset class="actions">
        <legend class="sr-only">Conversation actions</legend>
        {c.mode !== "human" || c.assignedAgent === undefined ? (
          <button
            type="button"
            class="button button-primary"
            disabled={busy !== undefined}
            onClick={() => act("Take over", () => api.takeover(key))}
          >
            Take over
          </button>
        ) : (
          !mineNow && (
            <button
              type="button"
              class="button button-primary"
              disabled={busy !== undefined}
              onClick={() => act("Assign to me", () => api.assign(key, me.id))}
            >
              Assign to me
            </button>
          )
        )}
        {c.mode !== "bot" && (
          <button
            type="button"
            class="button"
            disabled={busy !== undefined}
            onClick={() => setMode("bot", "Return to bot")}
          >
            Return to bot
          </button>
        )}
        {c.mode !== "paused" && (
          <button
            type="button"
            class="button"
            disabled={busy !== undefined}
            onClick={() => setMode("paused", "Pause")}
          >
            Pause
          </button>
        )}
        <button type="button" class="button" aria-expanded={noteOpen} onClick={() => setNoteOpen(!noteOpen)}>
          Add note
        </button>
        {assignable.length > 1 && (
          <label class="assign-picker">
            <span>Assign to</span>
            <select
              value={c.assignedAgent ?? ""}
              disabled={busy !== undefined}
              onChange={(event) => {
                const chosen = (event.target as HTMLSelectElement).value;
                void act("Assign", () => api.assign(key, chosen === "" ? null : chosen));
              }}
            >
              <option value="">Nobody</option>
              {assignable.map((operator) => (
                <option key={operator.id} value={operator.id}>
                  {operator.id === me.id ? `${operator.name} (me)` : operator.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {!detail.window.open && (
          <button type="button" class="button" onClick={() => setTemplateOpen(true)}>
            Send template
          </button>
        )}
      </fieldset>
      <ErrorAlert error={actionError} onDismiss={() => setActionError(undefined)} />
      <p class="sr-only" aria-live="polite">
        {announce}
      </p>

      <div
        class="conv-scroll"
        ref={scroller}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        }}
      >
        {moreCursor !== undefined && (
          <button
            type="button"
            class="button button-quiet load-older"
            onClick={loadOlder}
            disabled={busy === "older"}
          >
            {busy === "older" ? "Loading…" : "Load older messages"}
          </button>
        )}
        {items.length === 0 ? (
          <p class="empty">No messages yet.</p>
        ) : (
          <ol class="timeline" aria-label="Conversation history">
            {items.map((item) => {
              switch (item.kind) {
                case "day":
                  return (
                    <li key={`day-${item.at}`} class="day">
                      <span>{formatDay(item.at, now)}</span>
                    </li>
                  );
                case "message":
                  return (
                    <MessageItem key={messageId(item.message)} message={item.message} turn={item.turn} />
                  );
                case "note":
                  return <NoteItem key={`note-${item.note.id}`} note={item.note} />;
                case "turn":
                  return (
                    <li key={`turn-${item.turn.turnId}`} class="msg msg-out msg-turn-only">
                      <p class="turn-alone">Bot turn without a reply · {formatTime(item.turn.at)}</p>
                      <TurnDetails turn={item.turn} />
                    </li>
                  );
                default:
                  return null;
              }
            })}
          </ol>
        )}
      </div>

      {noteOpen && (
        <NoteForm
          conversationKey={key}
          onDone={(note) => {
            setNoteOpen(false);
            if (note !== undefined) {
              stick.current = true;
              setDetail((d) =>
                d === undefined ? d : { ...d, notes: [note, ...d.notes.filter((n) => n.id !== note.id)] },
              );
            }
            void load();
          }}
        />
      )}
      <Composer
        conversationKey={key}
        assignee={
          c.assignedAgent !== undefined && c.assignedAgent !== me.id ? (assignee ?? "Someone") : undefined
        }
        windowOpen={detail.window.open}
        hint={
          !detail.window.open
            ? undefined
            : c.mode === "bot"
              ? "The bot is answering this customer. Take over to answer yourself, so you don't both reply."
              : c.mode === "paused"
                ? "Paused: neither the bot nor anyone else is answering this customer."
                : undefined
        }
        onWindowClosed={() => setTemplateOpen(true)}
        onSent={() => {
          stick.current = true;
          setAnnounce("Reply queued");
          void load();
        }}
      />
      {templateOpen && (
        <TemplatePicker
          tenant={c.tenantId}
          conversationKey={key}
          assignee={
            c.assignedAgent !== undefined && c.assignedAgent !== me.id ? (assignee ?? "Someone") : undefined
          }
          onClose={(sent) => {
            setTemplateOpen(false);
            if (sent) {
              stick.current = true;
              setAnnounce("Template queued");
              void load();
            }
          }}
        />
      )}
    </div>
  );
}

function dedupe(messages: Message[]): Message[] {
  const seen = new Set<string>();
  return messages.filter((m) => {
    const id = messageId(m);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
