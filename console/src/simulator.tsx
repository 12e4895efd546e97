// The simulator: be a customer. Messages go in as webhooks Meta would send (optionally with Meta's
// misbehaviour: duplicates, reordering, bursts, stale replays) and the bot's replies come back here,
// with their ticks and tappable reply buttons and list rows. Only for tenants whose Graph API is fake.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, type Chaos, type ConversationDetail, type Message } from "./api";
import { formatPhone, formatTime, readStored, writeStored } from "./lib";
import { useDebounced, useLiveEvents, useLiveState } from "./live";
import { InboundContent, OutboundContent, type Tap } from "./message";
import { ErrorAlert, Notice, Ticks, useApp } from "./ui";

const PREFIXES = ["703", "706", "803", "806", "810", "813", "816", "903", "906", "915"];

export function randomNigerianNumber(): string {
  const prefix = PREFIXES[Math.floor(Math.random() * PREFIXES.length)] ?? "803";
  let rest = "";
  for (let i = 0; i < 7; i++) rest += String(Math.floor(Math.random() * 10));
  return `234${prefix}${rest}`;
}

const CHAOS: { key: keyof Chaos; label: string; hint: string }[] = [
  { key: "duplicate", label: "Duplicate", hint: "Meta delivers the webhook twice" },
  { key: "outOfOrder", label: "Out of order", hint: "a later one arrives first" },
  { key: "burst", label: "Burst", hint: "several webhooks at once" },
  { key: "staleReplay", label: "Stale replay", hint: "an old webhook comes again later" },
];

const keyStore = (tenant: string, from: string) => `ss.sim.key.${tenant}.${from}`;

function SimMessage(props: { message: Message; onTap: (tap: Tap) => void; disabled: boolean }) {
  const m = props.message;
  const customer = m.direction === "inbound";
  return (
    <li
      class={`sim-msg ${customer ? "sim-customer" : "sim-bot"}`}
      data-testid="message"
      data-direction={m.direction}
    >
      <div class="sim-bubble">
        {!customer && m.sentBy !== undefined && <p class="msg-sender">{m.sentByName ?? m.sentBy}</p>}
        {customer ? (
          <InboundContent message={m} />
        ) : (
          <OutboundContent message={m} onTap={props.onTap} disabled={props.disabled} />
        )}
        <span class="msg-foot">
          <time dateTime={new Date(m.at).toISOString()}>{formatTime(m.at)}</time>
          {!customer && <Ticks delivery={m.delivery} />}
        </span>
      </div>
    </li>
  );
}

export function Simulator() {
  const app = useApp();
  const live = useLiveState();
  const [tenantId, setTenantId] = useState(() => {
    const stored = readStored("ss.sim.tenant");
    const pick = [app.tenant, stored].find((t) => t !== undefined && app.tenants.some((x) => x.id === t));
    return pick ?? app.tenants.find((t) => t.simulator.available)?.id ?? app.tenants[0]?.id ?? "";
  });
  const tenant = app.tenants.find((t) => t.id === tenantId);
  const [phoneNumberId, setPhoneNumberId] = useState("");
  const [from, setFrom] = useState(() => {
    const stored = readStored("ss.sim.from");
    if (stored !== undefined && /^\d{6,15}$/.test(stored)) return stored;
    const fresh = randomNigerianNumber();
    writeStored("ss.sim.from", fresh);
    return fresh;
  });
  const [name, setName] = useState(() => readStored("ss.sim.name") ?? "Test customer");
  const [chaos, setChaos] = useState<Chaos>({});
  const [text, setText] = useState("");
  const [key, setKey] = useState<string | undefined>();
  const [detail, setDetail] = useState<ConversationDetail | undefined>();
  const [error, setError] = useState<unknown>();
  const [unavailable, setUnavailable] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [settingsOpen] = useState(() => matchMedia("(min-width: 900px)").matches);

  const validFrom = /^\d{6,15}$/.test(from);
  const blocked = tenant === undefined || !tenant.simulator.available || unavailable !== undefined;
  const blockReason =
    tenant === undefined
      ? "You have no tenant to simulate."
      : (unavailable ??
        (tenant.simulator.available
          ? undefined
          : (tenant.simulator.reason ?? "The simulator is not available for this tenant.")));

  const load = async (k: string | undefined) => {
    if (k === undefined) {
      setDetail(undefined);
      return;
    }
    try {
      setDetail(await api.conversation(k));
      setError(undefined);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) setDetail(undefined);
      else setError(e);
    }
  };

  // Which conversation is this customer's: remembered, else looked up by number.
  useEffect(() => {
    setUnavailable(undefined);
    setDetail(undefined);
    if (tenantId === "" || !validFrom) {
      setKey(undefined);
      return;
    }
    const known = readStored(keyStore(tenantId, from));
    if (known !== undefined) {
      setKey(known);
      void load(known);
      return;
    }
    setKey(undefined);
    let cancelled = false;
    api
      .conversations({ tenant: tenantId, view: "all", q: from, limit: 5 })
      .then((page) => {
        const found = page.items.find((c) => c.customerId === from);
        if (cancelled || found === undefined) return;
        writeStored(keyStore(tenantId, from), found.conversationKey);
        setKey(found.conversationKey);
        void load(found.conversationKey);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [tenantId, from, validFrom]);

  const reload = useDebounced(() => void load(key), 150);
  useLiveEvents((event) => {
    if (key !== undefined && "conversationKey" in event.data && event.data.conversationKey === key) reload();
    else if (
      event.name === "status" &&
      event.data.conversationKey === undefined &&
      event.data.tenantId === tenantId
    ) {
      reload();
    }
  });
  useEffect(() => {
    if (live === "live" || key === undefined) return;
    const timer = setInterval(() => void load(key), 3000);
    return () => clearInterval(timer);
  }, [live, key]);

  const messages = [...(detail?.messages ?? [])].sort((a, b) => a.at - b.at || (a.part ?? 0) - (b.part ?? 0));
  const lastAt = messages.at(-1)?.at ?? 0;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el !== null) el.scrollTop = el.scrollHeight;
  }, [lastAt, messages.length]);

  const post = async (
    content: { text: string } | { buttonReply: Tap["reply"] } | { listReply: Tap["reply"] },
  ) => {
    if (blocked || !validFrom || tenant === undefined) return;
    setSending(true);
    setError(undefined);
    try {
      const active = Object.fromEntries(Object.entries(chaos).filter(([, on]) => on)) as Chaos;
      const result = await api.simulate({
        tenant: tenant.id,
        ...(phoneNumberId !== "" ? { phoneNumberId } : {}),
        from,
        ...(name.trim() !== "" ? { name: name.trim() } : {}),
        ...content,
        ...(Object.keys(active).length > 0 ? { chaos: active } : {}),
      });
      writeStored(keyStore(tenant.id, from), result.conversationKey);
      setKey(result.conversationKey);
      if ("text" in content) setText("");
      await load(result.conversationKey);
    } catch (e) {
      if (e instanceof ApiError && e.code === "SS_CONSOLE_SIMULATOR_UNAVAILABLE") setUnavailable(e.message);
      else setError(e);
    } finally {
      setSending(false);
      input.current?.focus();
    }
  };

  const newCustomer = () => {
    const fresh = randomNigerianNumber();
    setFrom(fresh);
    writeStored("ss.sim.from", fresh);
  };

  return (
    <div class="page simulator">
      <details class="sim-settings" open={settingsOpen}>
        <summary>Customer and Meta chaos</summary>
        <div class="sim-settings-body">
          <label class="field">
            <span class="field-label">Tenant</span>
            <select
              value={tenantId}
              onChange={(e) => {
                setTenantId(e.currentTarget.value);
                setPhoneNumberId("");
                writeStored("ss.sim.tenant", e.currentTarget.value);
              }}
            >
              {app.tenants.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.id}
                  {t.simulator.available ? "" : " (real Graph API)"}
                </option>
              ))}
            </select>
          </label>
          {(tenant?.phoneNumberIds.length ?? 0) > 1 && (
            <label class="field">
              <span class="field-label">Business number</span>
              <select value={phoneNumberId} onChange={(e) => setPhoneNumberId(e.currentTarget.value)}>
                <option value="">Default</option>
                {tenant?.phoneNumberIds.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label class="field">
            <span class="field-label">Customer number</span>
            <input
              type="text"
              inputMode="numeric"
              value={from}
              aria-invalid={!validFrom}
              onInput={(e) => {
                const value = e.currentTarget.value.replace(/\D/g, "");
                setFrom(value);
                if (/^\d{6,15}$/.test(value)) writeStored("ss.sim.from", value);
              }}
            />
          </label>
          {!validFrom && <p class="field-error">6 to 15 digits, with the country code (234…).</p>}
          <button type="button" class="button button-quiet" onClick={newCustomer}>
            New customer number
          </button>
          <label class="field">
            <span class="field-label">Customer name</span>
            <input
              type="text"
              value={name}
              onInput={(e) => {
                setName(e.currentTarget.value);
                writeStored("ss.sim.name", e.currentTarget.value);
              }}
            />
          </label>
          <fieldset class="chaos">
            <legend>Meta chaos</legend>
            {CHAOS.map((c) => (
              <label key={c.key} class="switch">
                <input
                  type="checkbox"
                  role="switch"
                  aria-label={c.label}
                  aria-describedby={`chaos-${c.key}`}
                  aria-checked={chaos[c.key] === true}
                  checked={chaos[c.key] === true}
                  onChange={(e) => setChaos({ ...chaos, [c.key]: e.currentTarget.checked })}
                />
                <span class="switch-track" aria-hidden="true" />
                <span class="switch-text">
                  {c.label}
                  <small id={`chaos-${c.key}`}>{c.hint}</small>
                </span>
              </label>
            ))}
          </fieldset>
        </div>
      </details>

      <section class="phone" aria-label="Simulated chat">
        <header class="phone-head">
          <span class="phone-title">{tenant?.id ?? "No tenant"}</span>
          <span class="phone-sub">
            you are {name.trim() || "a customer"} · {formatPhone(from)}
          </span>
        </header>
        {blockReason !== undefined && (
          <div class="alert" role="alert">
            {blockReason}
          </div>
        )}
        <ErrorAlert error={error} onDismiss={() => setError(undefined)} />
        <div class="phone-scroll" ref={scroller}>
          {messages.length === 0 ? (
            <Notice>Say something as the customer: "Good morning, I want to check my order".</Notice>
          ) : (
            <ol class="sim-list" aria-label="Chat history">
              {messages.map((m) => (
                <SimMessage
                  key={m.wamid ?? `${m.turnId}:${m.part}:${m.at}`}
                  message={m}
                  disabled={blocked || sending}
                  onTap={(tap) =>
                    void post(tap.kind === "button" ? { buttonReply: tap.reply } : { listReply: tap.reply })
                  }
                />
              ))}
            </ol>
          )}
        </div>
        <form
          class="phone-compose"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim() !== "") void post({ text: text.trim() });
          }}
        >
          <label class="phone-input">
            <span class="sr-only">Message</span>
            <input
              ref={input}
              type="text"
              placeholder="Type a message"
              value={text}
              disabled={blocked}
              onInput={(e) => setText(e.currentTarget.value)}
            />
          </label>
          <button
            type="submit"
            class="button button-primary"
            disabled={blocked || sending || !validFrom || text.trim() === ""}
          >
            Send
          </button>
        </form>
      </section>
    </div>
  );
}
