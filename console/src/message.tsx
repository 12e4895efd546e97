// How one message reads: the customer's (any WhatsApp type, defensively) and ours (the Graph API
// body we queued), plus a bot turn's decision, tool calls and cost. Shared by the inbox and the
// simulator; the simulator makes our reply buttons and list rows tappable.
import type { ComponentChildren } from "preact";
import type { Message, QuickReply, Reading, Turn } from "./api";
import { field, formatCount, formatUsd, list, num, str } from "./lib";

export interface Tap {
  kind: "button" | "list";
  reply: QuickReply;
}

const MEDIA_LABEL: Record<string, string> = {
  image: "📷 Photo",
  video: "🎥 Video",
  audio: "🎤 Voice message",
  voice: "🎤 Voice message",
  document: "📄 Document",
  sticker: "Sticker",
};

function Placeholder(props: { children: ComponentChildren }) {
  return <span class="msg-placeholder">{props.children}</span>;
}

function Text(props: { text: string | undefined }) {
  return props.text === undefined ? null : <p class="msg-text">{props.text}</p>;
}

function Meta(props: { children: ComponentChildren }) {
  return <span class="msg-meta">{props.children}</span>;
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function Media(props: {
  type: string;
  caption?: string;
  mediaId?: string;
  filename?: string;
  reading?: Reading;
}) {
  const reading = props.reading;
  const receipt = reading?.receipt;
  return (
    <>
      <Placeholder>
        {MEDIA_LABEL[props.type] ?? props.type}
        {props.filename !== undefined && ` · ${props.filename}`}
      </Placeholder>
      {reading?.transcript !== undefined && (
        <p class="transcript">
          <Meta>transcript</Meta> {reading.transcript.text}
        </p>
      )}
      {receipt !== undefined && (
        <p class="transcript">
          <Meta>receipt</Meta>{" "}
          {Object.entries(receipt)
            .map(
              ([name, value]) =>
                `${name}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`,
            )
            .join(" · ")}
        </p>
      )}
      {reading?.extractedText !== undefined && (
        <p class="transcript">
          <Meta>text</Meta> {reading.extractedText.slice(0, 400)}
        </p>
      )}
      {reading?.failure !== undefined && <Meta>could not be read: {reading.failure.reason}</Meta>}
      <Text text={props.caption} />
      {props.mediaId !== undefined && <Meta>media {props.mediaId}</Meta>}
    </>
  );
}

/** The customer's message. `content` is the normalised message; `content.content` the type's own object. */
export function InboundContent(props: { message: Message }) {
  const m = props.message;
  const whole = m.content;
  const own = field(whole, "content") ?? field(whole, m.type);
  const text = m.text ?? str(field(whole, "text"));
  switch (m.type) {
    case "text":
      return <Text text={text ?? str(field(own, "body")) ?? ""} />;
    case "image":
    case "video":
    case "audio":
    case "voice":
    case "document":
    case "sticker":
      return (
        <Media
          type={m.type}
          caption={m.caption ?? str(field(own, "caption"))}
          mediaId={m.mediaId ?? str(field(own, "id"))}
          filename={str(field(own, "filename"))}
          {...(m.reading === undefined ? {} : { reading: m.reading })}
        />
      );
    case "reaction": {
      const emoji = str(field(own, "emoji"));
      return <Placeholder>{emoji === undefined ? "Removed a reaction" : `Reacted ${emoji}`}</Placeholder>;
    }
    case "location": {
      const latitude = num(field(own, "latitude"));
      const longitude = num(field(own, "longitude"));
      return (
        <>
          <Placeholder>📍 {str(field(own, "name")) ?? "Location"}</Placeholder>
          <Text text={str(field(own, "address"))} />
          {latitude !== undefined && longitude !== undefined && (
            <Meta>
              {latitude.toFixed(5)}, {longitude.toFixed(5)}
            </Meta>
          )}
        </>
      );
    }
    case "contacts": {
      const cards = list(own ?? field(whole, "contacts"));
      return (
        <>
          <Placeholder>
            👤 {cards.length === 1 ? "Contact card" : `${cards.length} contact cards`}
          </Placeholder>
          <ul class="msg-list">
            {cards.map((card, index) => {
              const name = field(card, "name");
              const label =
                str(field(name, "formatted_name")) ?? str(field(name, "formattedName")) ?? str(name);
              const phones = list(field(card, "phones"))
                .map((p) => str(field(p, "phone")) ?? str(field(p, "wa_id")))
                .filter((p) => p !== undefined);
              return (
                <li key={index}>
                  {label ?? "Unnamed"}
                  {phones.length > 0 && ` · ${phones.join(", ")}`}
                </li>
              );
            })}
          </ul>
        </>
      );
    }
    case "order": {
      const items = list(field(own, "product_items") ?? field(own, "productItems") ?? field(own, "items"));
      return (
        <>
          <Placeholder>🛒 Order · {items.length === 1 ? "1 item" : `${items.length} items`}</Placeholder>
          <ul class="msg-list">
            {items.map((item, index) => {
              const id =
                str(field(item, "product_retailer_id")) ?? str(field(item, "productRetailerId")) ?? "item";
              const quantity = num(field(item, "quantity"));
              const price = num(field(item, "item_price") ?? field(item, "itemPrice"));
              const currency = str(field(item, "currency")) ?? "";
              return (
                <li key={index}>
                  {quantity ?? 1} × {id}
                  {price !== undefined && ` @ ${currency} ${formatCount(price)}`}
                </li>
              );
            })}
          </ul>
          <Text text={text ?? str(field(own, "text"))} />
        </>
      );
    }
    case "interactive": {
      const kind = str(field(own, "type"));
      const reply = field(own, "button_reply") ?? field(own, "list_reply") ?? own;
      if (kind === "nfm_reply") {
        const form = field(own, "nfm_reply") ?? own;
        const json = str(field(form, "response_json")) ?? str(field(form, "responseJson"));
        return (
          <>
            <Placeholder>
              📝 Form submitted{str(field(form, "name")) ? ` · ${str(field(form, "name"))}` : ""}
            </Placeholder>
            {json !== undefined && <pre class="msg-pre">{pretty(json)}</pre>}
          </>
        );
      }
      const title = str(field(reply, "title")) ?? text;
      return (
        <>
          <span class="msg-tap">
            <span aria-hidden="true">↩︎ </span>
            {title ?? "Tapped a reply"}
          </span>
          {str(field(reply, "id")) !== undefined && <Meta>{str(field(reply, "id"))}</Meta>}
        </>
      );
    }
    case "button":
      return (
        <>
          <span class="msg-tap">
            <span aria-hidden="true">↩︎ </span>
            {str(field(own, "text")) ?? text ?? "Tapped a button"}
          </span>
          {str(field(own, "payload")) !== undefined && <Meta>{str(field(own, "payload"))}</Meta>}
        </>
      );
    case "edit":
      return (
        <>
          <Placeholder>✏️ Edited a message</Placeholder>
          <Text text={text} />
        </>
      );
    case "revoke":
      return <Placeholder>🚫 Deleted a message</Placeholder>;
    case "system":
      return (
        <>
          <Placeholder>System notice</Placeholder>
          <Text text={text ?? str(field(own, "body"))} />
        </>
      );
    default: {
      const original = str(field(whole, "originalType"));
      return (
        <>
          <Placeholder>
            Unsupported message type: {original ?? m.type}
            {original !== undefined && m.type !== original && ` (${m.type})`}
          </Placeholder>
          <Text text={text ?? m.caption} />
        </>
      );
    }
  }
}

/** The reply buttons and list rows of one of our interactive messages. */
export function interactiveChoices(body: unknown): {
  buttons: QuickReply[];
  list?: { label: string; rows: QuickReply[] };
} {
  const interactive = field(body, "interactive");
  const action = field(interactive, "action");
  const buttons = list(field(action, "buttons"))
    .map((b) => field(b, "reply") ?? b)
    .map((r) => ({ id: str(field(r, "id")) ?? "", title: str(field(r, "title")) ?? "" }))
    .filter((r) => r.title !== "");
  const sections = list(field(action, "sections"));
  const rows = sections.flatMap((s) =>
    list(field(s, "rows"))
      .map((r) => ({ id: str(field(r, "id")) ?? "", title: str(field(r, "title")) ?? "" }))
      .filter((r) => r.title !== ""),
  );
  return {
    buttons,
    list: rows.length > 0 ? { label: str(field(action, "button")) ?? "Choose", rows } : undefined,
  };
}

/** Our message: what the Graph API body says, else the text we recorded. */
export function OutboundContent(props: { message: Message; onTap?: (tap: Tap) => void; disabled?: boolean }) {
  const m = props.message;
  const body = m.body;
  const type = str(field(body, "type")) ?? m.type;
  const own = field(body, type);
  switch (type) {
    case "text":
      return <Text text={str(field(own, "body")) ?? m.text ?? ""} />;
    case "interactive": {
      const interactive = own;
      const header = field(interactive, "header");
      const choices = interactiveChoices(body);
      const sections = list(field(field(interactive, "action"), "sections"));
      const kind = str(field(interactive, "type"));
      return (
        <>
          {str(field(header, "text")) !== undefined && <p class="msg-header">{str(field(header, "text"))}</p>}
          <Text text={str(field(field(interactive, "body"), "text")) ?? m.text} />
          {str(field(field(interactive, "footer"), "text")) !== undefined && (
            <Meta>{str(field(field(interactive, "footer"), "text"))}</Meta>
          )}
          {choices.buttons.length > 0 && (
            <div class="msg-buttons">
              {choices.buttons.map((reply) =>
                props.onTap === undefined ? (
                  <span key={reply.id} class="msg-button">
                    {reply.title}
                  </span>
                ) : (
                  <button
                    key={reply.id}
                    type="button"
                    class="msg-button"
                    disabled={props.disabled}
                    onClick={() => props.onTap?.({ kind: "button", reply })}
                  >
                    {reply.title}
                  </button>
                ),
              )}
            </div>
          )}
          {choices.list !== undefined && (
            <details class="msg-rows">
              <summary>☰ {choices.list.label}</summary>
              {sections.map((section, index) => (
                <div key={index} class="msg-section">
                  {str(field(section, "title")) !== undefined && (
                    <p class="msg-section-title">{str(field(section, "title"))}</p>
                  )}
                  {list(field(section, "rows")).map((row) => {
                    const reply = { id: str(field(row, "id")) ?? "", title: str(field(row, "title")) ?? "" };
                    const description = str(field(row, "description"));
                    return props.onTap === undefined ? (
                      <div key={reply.id} class="msg-row">
                        <span>{reply.title}</span>
                        {description !== undefined && <small>{description}</small>}
                      </div>
                    ) : (
                      <button
                        key={reply.id}
                        type="button"
                        class="msg-row"
                        disabled={props.disabled}
                        onClick={() => props.onTap?.({ kind: "list", reply })}
                      >
                        <span>{reply.title}</span>
                        {description !== undefined && <small>{description}</small>}
                      </button>
                    );
                  })}
                </div>
              ))}
            </details>
          )}
          {choices.buttons.length === 0 && choices.list === undefined && kind !== undefined && (
            <Meta>interactive: {kind}</Meta>
          )}
        </>
      );
    }
    case "template": {
      const name = str(field(own, "name")) ?? "template";
      const language = str(field(field(own, "language"), "code")) ?? str(field(own, "language"));
      const parameters = list(field(own, "components")).flatMap((c) =>
        list(field(c, "parameters")).map((p) => str(field(p, "text")) ?? ""),
      );
      return (
        <>
          <Placeholder>
            📋 Template {name}
            {language !== undefined && ` (${language})`}
          </Placeholder>
          <Text text={m.text} />
          {parameters.length > 0 && <Meta>{parameters.join(" · ")}</Meta>}
        </>
      );
    }
    case "image":
    case "video":
    case "audio":
    case "document":
    case "sticker":
      return (
        <Media
          type={type}
          caption={str(field(own, "caption")) ?? m.caption}
          mediaId={m.mediaId ?? str(field(own, "id"))}
          filename={str(field(own, "filename"))}
          {...(m.reading === undefined ? {} : { reading: m.reading })}
        />
      );
    case "reaction":
      return <Placeholder>Reacted {str(field(own, "emoji")) ?? ""}</Placeholder>;
    case "location":
      return <Placeholder>📍 {str(field(own, "name")) ?? "Location"}</Placeholder>;
    default:
      return (
        <>
          <Placeholder>Message type: {type}</Placeholder>
          <Text text={m.text} />
        </>
      );
  }
}

/** A bot turn: the router's decision, the agent's tool calls (collapsible), tokens and cost. */
export function TurnDetails(props: { turn: Turn }) {
  const { decision, agent } = props.turn;
  const calls = agent?.calls ?? [];
  return (
    <div class="turn">
      <div class="turn-line">
        <span class="turn-chip" title="Router tier">
          {decision.tier}
        </span>
        <span class="turn-intent">{decision.intent}</span>
        <span class="turn-num" title="Confidence">
          {Math.round(decision.confidence * 100)}%
        </span>
        {decision.resolved && <span class="turn-chip turn-local">answered locally</span>}
      </div>
      {agent !== undefined && (
        <div class="turn-line">
          <span class="turn-chip turn-agent">LLM · {agent.outcome}</span>
          <span class="turn-num">
            {formatCount(agent.promptTokens)} in / {formatCount(agent.completionTokens)} out tokens
          </span>
          <span class="turn-num">{formatUsd(agent.costUsd)}</span>
        </div>
      )}
      {calls.length > 0 ? (
        <details class="turn-calls">
          <summary>
            {calls.length === 1 ? "1 tool call" : `${calls.length} tool calls`}:{" "}
            {calls.map((c) => c.name).join(", ")}
          </summary>
          {calls.map((call, index) => (
            <div key={index} class="turn-call">
              <p class="turn-call-name">
                <span class={call.ok ? "ok" : "bad"}>{call.ok ? "✓" : "✕"}</span> {call.name}
                {!call.ok && " (failed)"}
              </p>
              <p class="turn-call-label">Arguments</p>
              <pre>{pretty(call.arguments)}</pre>
              <p class="turn-call-label">Result</p>
              <pre>{pretty(call.result)}</pre>
            </div>
          ))}
        </details>
      ) : (
        agent !== undefined &&
        agent.tools.length > 0 && <p class="turn-tools">Tools: {agent.tools.join(", ")}</p>
      )}
    </div>
  );
}
