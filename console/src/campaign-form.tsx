// "New campaign": the template, an audience as a CSV file read here in the browser, and optional
// quiet hours. It creates a draft; starting it is a separate, deliberate step on the report.
import { useState } from "preact/hooks";
import type { Tenant } from "./api";
import { campaignApi, type TemplateCategory } from "./campaign-api";
import { formatCount, hrefOf, navigate } from "./lib";
import { ErrorAlert } from "./ui";

const CATEGORIES: { value: TemplateCategory; label: string }[] = [
  { value: "marketing", label: "Marketing" },
  { value: "utility", label: "Utility" },
  { value: "authentication", label: "Authentication" },
];

/** One key per form: a create retried after a lost answer gets the campaign already made, not a second. */
function newClientKey(): string {
  // randomUUID exists only on secure origins; an operator may open the console over plain HTTP.
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ""));
    reader.onerror = () => reject(new Error(`Could not read ${file.name}.`));
    reader.readAsText(file);
  });
}

/** Rows after the header, for the form's hint; the gateway checks every row itself. */
const rowsOf = (csv: string) =>
  Math.max(0, csv.split(/\r?\n/).filter((line) => line.trim() !== "").length - 1);

export function CampaignForm(props: { tenant: Tenant }) {
  const tenant = props.tenant.id;
  const [clientKey] = useState(newClientKey);
  const [name, setName] = useState("");
  const [template, setTemplate] = useState("");
  const [language, setLanguage] = useState("en");
  const [category, setCategory] = useState<TemplateCategory>("marketing");
  const [bodyText, setBodyText] = useState("");
  const [audience, setAudience] = useState<{ file: string; text: string } | undefined>();
  const [quiet, setQuiet] = useState(false);
  const [quietStart, setQuietStart] = useState("21:00");
  const [quietEnd, setQuietEnd] = useState("08:00");
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const pick = async (file: File | undefined) => {
    setAudience(undefined);
    if (file === undefined) return;
    try {
      setAudience({ file: file.name, text: await readText(file) });
      setError(undefined);
    } catch (e) {
      setError(e);
    }
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (audience === undefined) {
      setError(new Error("Choose the audience's CSV file."));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const answer = await campaignApi.create(tenant, {
        name: name.trim(),
        clientKey,
        template: {
          name: template.trim(),
          language: language.trim(),
          category,
          ...(bodyText.trim() !== "" ? { bodyText: bodyText.trim() } : {}),
        },
        audience: { format: "csv", text: audience.text },
        ...(quiet ? { quietHours: { start: quietStart, end: quietEnd } } : {}),
      });
      navigate({ page: "campaigns", tenant, id: answer.campaign.id });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  if (props.tenant.role !== "admin") {
    return (
      <div class="page">
        <h1>New campaign</h1>
        <ErrorAlert error={new Error(`Creating campaigns needs the admin role on ${tenant}.`)} />
      </div>
    );
  }

  return (
    <div class="page campaign-new">
      <a class="back-link" href={hrefOf({ page: "campaigns", tenant })}>
        ← All campaigns of {tenant}
      </a>
      <h1>New campaign for {tenant}</h1>
      <form class="campaign-form" onSubmit={submit}>
        <label class="field">
          <span class="field-label">Campaign name</span>
          <input
            type="text"
            required
            maxLength={200}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
        <fieldset class="form-group">
          <legend>Template (approved by Meta)</legend>
          <div class="form-row">
            <label class="field">
              <span class="field-label">Template name</span>
              <input
                type="text"
                required
                placeholder="december_sale"
                value={template}
                onInput={(e) => setTemplate(e.currentTarget.value)}
              />
            </label>
            <label class="field field-short">
              <span class="field-label">Language</span>
              <input
                type="text"
                required
                value={language}
                onInput={(e) => setLanguage(e.currentTarget.value)}
              />
            </label>
            <label class="field field-short">
              <span class="field-label">Category</span>
              <select
                value={category}
                onChange={(e) => setCategory(e.currentTarget.value as TemplateCategory)}
              >
                {CATEGORIES.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div class="field">
            <label class="field-label" for="campaign-body">
              Body text (optional)
            </label>
            <textarea
              id="campaign-body"
              rows={3}
              maxLength={1024}
              placeholder="Hi {{1}}, {{2}} off everything today only!"
              aria-describedby="campaign-body-hint"
              value={bodyText}
              onInput={(e) => setBodyText(e.currentTarget.value)}
            />
            <small id="campaign-body-hint" class="muted">
              With it, each row's parameters are checked against the {"{{1}}"}, {"{{2}}"}… placeholders.
            </small>
          </div>
        </fieldset>
        <div class="field">
          <label class="field-label" for="campaign-audience">
            Audience (CSV file)
          </label>
          <input
            id="campaign-audience"
            type="file"
            accept=".csv,text/csv"
            required
            aria-describedby="campaign-audience-hint"
            onChange={(e) => void pick(e.currentTarget.files?.[0])}
          />
          <small id="campaign-audience-hint" class="muted" aria-live="polite">
            {audience === undefined
              ? "A header row: wa_id (or user_id), then the parameters 1, 2…, and an optional timezone."
              : `${audience.file}: ${formatCount(rowsOf(audience.text))} rows`}
          </small>
        </div>
        <fieldset class="form-group">
          <legend>Quiet hours</legend>
          <label class="check">
            <input type="checkbox" checked={quiet} onChange={(e) => setQuiet(e.currentTarget.checked)} />
            Send nobody a message during these hours (each recipient's own time zone)
          </label>
          {quiet && (
            <div class="form-row">
              <label class="field field-short">
                <span class="field-label">From</span>
                <input
                  type="time"
                  required
                  value={quietStart}
                  onInput={(e) => setQuietStart(e.currentTarget.value)}
                />
              </label>
              <label class="field field-short">
                <span class="field-label">Until</span>
                <input
                  type="time"
                  required
                  value={quietEnd}
                  onInput={(e) => setQuietEnd(e.currentTarget.value)}
                />
              </label>
            </div>
          )}
        </fieldset>
        <ErrorAlert error={error} onDismiss={() => setError(undefined)} />
        <div class="row-start">
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? "Creating…" : "Create draft"}
          </button>
          <a class="button button-quiet" href={hrefOf({ page: "campaigns", tenant })}>
            Cancel
          </a>
        </div>
      </form>
    </div>
  );
}
