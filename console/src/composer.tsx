// Writing to a customer: the reply box (text and up to three quick replies), the template picker
// for a closed 24-hour window, and internal notes. A 409 for a conversation someone else holds asks
// before sending anyway; one for a closed window opens the template picker.
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, type Note, type QuickReply, type Template } from "./api";
import { ErrorAlert, Spinner } from "./ui";

export const MAX_BUTTONS = 3;
export const MAX_BUTTON_TITLE = 20;

const isCode = (error: unknown, code: string) => error instanceof ApiError && error.code === code;

function buttonId(title: string, index: number): string {
  const slug = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
  return `qr_${index + 1}${slug === "" ? "" : `_${slug}`}`.slice(0, 256);
}

function Confirm(props: { question: string; yes: string; onYes: () => void; onNo: () => void }) {
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => yes.current?.focus(), []);
  return (
    <div class="confirm" role="alertdialog" aria-label="Confirm" aria-describedby="confirm-question">
      <p id="confirm-question">{props.question}</p>
      <button type="button" class="button button-primary" ref={yes} onClick={props.onYes}>
        {props.yes}
      </button>
      <button type="button" class="button" onClick={props.onNo}>
        Cancel
      </button>
    </div>
  );
}

export function Composer(props: {
  conversationKey: string;
  /** Who holds the conversation when it is not me. */
  assignee?: string;
  windowOpen: boolean;
  /** A line above the box: who is answering, when it is not me. */
  hint?: string;
  onWindowClosed: () => void;
  onSent: () => void;
}) {
  const [text, setText] = useState("");
  const [showButtons, setShowButtons] = useState(false);
  const [titles, setTitles] = useState<string[]>(["", "", ""]);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>();
  const [confirming, setConfirming] = useState(false);

  const buttons: QuickReply[] = showButtons
    ? titles
        .map((t) => t.trim())
        .filter((t) => t !== "")
        .map((title, index) => ({ id: buttonId(title, index), title }))
    : [];
  const invalid =
    text.trim() === ""
      ? "Write a reply first."
      : buttons.length > 0 && text.length > 1024
        ? "Too long for quick replies."
        : "";

  const send = async (confirm: boolean) => {
    if (invalid !== "") {
      setError(new Error(invalid));
      return;
    }
    setSending(true);
    setError(undefined);
    setConfirming(false);
    try {
      await api.reply(props.conversationKey, {
        text: text.trim(),
        ...(buttons.length > 0 ? { buttons } : {}),
        ...(confirm ? { confirm: true } : {}),
      });
      setText("");
      setTitles(["", "", ""]);
      setShowButtons(false);
      props.onSent();
    } catch (e) {
      if (isCode(e, "SS_CONSOLE_NOT_ASSIGNED")) setConfirming(true);
      else {
        setError(e);
        if (isCode(e, "SS_CONSOLE_WINDOW_CLOSED")) props.onWindowClosed();
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send(false);
      }}
    >
      {!props.windowOpen && (
        <p class="composer-hint composer-window">
          The 24-hour window is closed: a free-form reply won't reach the customer. Send an approved template.
        </p>
      )}
      {props.hint !== undefined && <p class="composer-hint">{props.hint}</p>}
      {confirming && (
        <Confirm
          question={`${props.assignee ?? "Someone else"} is assigned; reply anyway?`}
          yes="Reply anyway"
          onYes={() => void send(true)}
          onNo={() => setConfirming(false)}
        />
      )}
      <ErrorAlert error={error} onDismiss={() => setError(undefined)} />
      {showButtons && (
        <fieldset class="quick">
          <legend>
            Quick replies (up to {MAX_BUTTONS}, {MAX_BUTTON_TITLE} characters each)
          </legend>
          {titles.map((title, index) => (
            <label key={index} class="field">
              <span class="sr-only">Quick reply {index + 1}</span>
              <input
                type="text"
                maxLength={MAX_BUTTON_TITLE}
                placeholder={`Button ${index + 1}`}
                value={title}
                onInput={(e) => {
                  const next = [...titles];
                  next[index] = e.currentTarget.value;
                  setTitles(next);
                }}
              />
            </label>
          ))}
        </fieldset>
      )}
      <div class="composer-row">
        <label class="composer-text">
          <span class="sr-only">Reply</span>
          <textarea
            rows={2}
            maxLength={4096}
            placeholder={
              props.windowOpen ? "Write a reply… (Ctrl+Enter sends)" : "Window closed: send a template"
            }
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                void send(false);
              }
            }}
          />
        </label>
        <div class="composer-buttons">
          <button
            type="button"
            class="button button-quiet"
            aria-pressed={showButtons}
            onClick={() => setShowButtons(!showButtons)}
          >
            Quick replies
          </button>
          <button type="submit" class="button button-primary" disabled={sending}>
            {sending ? "Sending…" : "Send reply"}
          </button>
        </div>
      </div>
    </form>
  );
}

export function NoteForm(props: { conversationKey: string; onDone: (note?: Note) => void }) {
  const [text, setText] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>();
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => box.current?.focus(), []);
  const save = async () => {
    if (text.trim() === "") {
      setError(new Error("Write the note first."));
      return;
    }
    setSaving(true);
    try {
      const { note } = await api.addNote(props.conversationKey, text.trim());
      props.onDone(note);
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      class="note-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label class="field">
        <span class="field-label">Note (only operators see it)</span>
        <textarea
          ref={box}
          rows={2}
          value={text}
          aria-label="Note"
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </label>
      <ErrorAlert error={error} />
      <div class="row-end">
        <button type="button" class="button" onClick={() => props.onDone()}>
          Cancel
        </button>
        <button type="submit" class="button button-note" disabled={saving}>
          Save note
        </button>
      </div>
    </form>
  );
}

function fill(body: string, parameters: string[]): string {
  return body.replace(/\{\{(\d+)\}\}/g, (whole, n: string) => {
    const value = parameters[Number(n) - 1];
    return value === undefined || value === "" ? whole : value;
  });
}

export function TemplatePicker(props: {
  tenant: string;
  conversationKey: string;
  assignee?: string;
  onClose: (sent: boolean) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [templates, setTemplates] = useState<{ items: Template[]; reason?: string } | undefined>();
  const [chosen, setChosen] = useState<Template | undefined>();
  const [parameters, setParameters] = useState<string[]>([]);
  const [error, setError] = useState<unknown>();
  const [sending, setSending] = useState(false);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    const el = dialog.current;
    if (el !== null && !el.open) el.showModal();
    api
      .templates(props.tenant)
      .then(setTemplates)
      .catch((e) => setError(e));
  }, [props.tenant]);

  const choose = (t: Template) => {
    setChosen(t);
    setParameters(Array.from({ length: t.parameterCount }, () => ""));
  };

  const send = async (confirm: boolean) => {
    if (chosen === undefined) return;
    if (parameters.some((p) => p.trim() === "")) {
      setError(new Error("Fill in every parameter."));
      return;
    }
    setSending(true);
    setError(undefined);
    setConfirming(false);
    try {
      await api.template(props.conversationKey, {
        name: chosen.name,
        language: chosen.language,
        ...(parameters.length > 0 ? { parameters: parameters.map((p) => p.trim()) } : {}),
        ...(confirm ? { confirm: true } : {}),
      });
      dialog.current?.close();
      props.onClose(true);
    } catch (e) {
      if (isCode(e, "SS_CONSOLE_NOT_ASSIGNED")) setConfirming(true);
      else setError(e);
    } finally {
      setSending(false);
    }
  };

  const usable = (t: Template) => t.status.toUpperCase() === "APPROVED";
  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby="template-title"
      onClose={() => props.onClose(false)}
      onCancel={() => props.onClose(false)}
    >
      <form
        method="dialog"
        class="dialog-body"
        onSubmit={(e) => {
          e.preventDefault();
          void send(false);
        }}
      >
        <h2 id="template-title">Send a template</h2>
        <p class="muted">Outside the 24-hour window only an approved template reaches the customer.</p>
        <ErrorAlert error={error} />
        {templates === undefined ? (
          error === undefined && <Spinner label="Loading templates…" />
        ) : templates.items.length === 0 ? (
          <p class="empty">{templates.reason ?? "This tenant has no templates."}</p>
        ) : (
          <fieldset class="templates">
            <legend class="sr-only">Template</legend>
            {templates.items.map((t) => (
              <label key={`${t.name}/${t.language}`} class={`template${usable(t) ? "" : " template-off"}`}>
                <input
                  type="radio"
                  name="template"
                  checked={chosen === t}
                  disabled={!usable(t)}
                  onChange={() => choose(t)}
                />
                <span class="template-main">
                  <span class="template-name">
                    {t.name}{" "}
                    <span class="muted">
                      · {t.language} · {t.category.toLowerCase()}
                    </span>
                    {!usable(t) && <span class="badge badge-paused">{t.status.toLowerCase()}</span>}
                  </span>
                  {t.body !== undefined && <span class="template-body">{t.body}</span>}
                </span>
              </label>
            ))}
          </fieldset>
        )}
        {chosen !== undefined && parameters.length > 0 && (
          <div class="params">
            {parameters.map((value, index) => (
              <label key={index} class="field">
                <span class="field-label">Parameter {index + 1}</span>
                <input
                  type="text"
                  value={value}
                  onInput={(e) => {
                    const next = [...parameters];
                    next[index] = e.currentTarget.value;
                    setParameters(next);
                  }}
                />
              </label>
            ))}
          </div>
        )}
        {chosen?.body !== undefined && (
          <div class="preview">
            <p class="field-label">Preview</p>
            <p class="bubble bubble-preview">{fill(chosen.body, parameters)}</p>
          </div>
        )}
        {confirming && (
          <Confirm
            question={`${props.assignee ?? "Someone else"} is assigned; send anyway?`}
            yes="Send anyway"
            onYes={() => void send(true)}
            onNo={() => setConfirming(false)}
          />
        )}
        <div class="row-end">
          <button
            type="button"
            class="button"
            onClick={() => {
              dialog.current?.close();
            }}
          >
            Cancel
          </button>
          <button type="submit" class="button button-primary" disabled={chosen === undefined || sending}>
            {sending ? "Sending…" : "Send this template"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
