// The buttons that move a campaign on, offered by its state as the API allows them (start a draft;
// pause a running or scheduled one; resume a paused one; cancel any that has not ended), with a
// second step before cancelling, and the API's answer shown when it refuses.
import { useEffect, useRef, useState } from "preact/hooks";
import { type Campaign, type CampaignAction, type CampaignState, campaignApi } from "./campaign-api";
import { ErrorAlert } from "./ui";

const OFFERED: Record<CampaignState, CampaignAction[]> = {
  draft: ["start", "cancel"],
  scheduled: ["pause", "cancel"],
  running: ["pause", "cancel"],
  paused: ["resume", "cancel"],
  completed: [],
  cancelled: [],
};

const LABEL: Record<CampaignAction, string> = {
  start: "Start",
  pause: "Pause",
  resume: "Resume",
  cancel: "Cancel campaign",
};

export function CampaignActions(props: { campaign: Campaign; onChanged: (campaign?: Campaign) => void }) {
  const c = props.campaign;
  const [busy, setBusy] = useState<CampaignAction | undefined>();
  const [error, setError] = useState<unknown>();
  const [confirming, setConfirming] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) yes.current?.focus();
  }, [confirming]);

  const act = async (action: CampaignAction) => {
    setBusy(action);
    setError(undefined);
    setConfirming(false);
    try {
      props.onChanged(await campaignApi.act(c.tenantId, c.id, action));
    } catch (e) {
      setError(e);
      // Someone else (or the gateway) may have moved it: show where it is now.
      props.onChanged();
    } finally {
      setBusy(undefined);
    }
  };

  const offered = OFFERED[c.state] ?? [];
  return (
    <div class="campaign-actions">
      <ErrorAlert error={error} onDismiss={() => setError(undefined)} />
      {offered.length > 0 && (
        <div class="row-start">
          {offered.map((action) => (
            <button
              key={action}
              type="button"
              class={`button${action === "start" || action === "resume" ? " button-primary" : ""}`}
              disabled={busy !== undefined}
              aria-expanded={action === "cancel" ? confirming : undefined}
              onClick={() => (action === "cancel" ? setConfirming(true) : void act(action))}
            >
              {busy === action ? `${LABEL[action]}…` : LABEL[action]}
            </button>
          ))}
        </div>
      )}
      {confirming && (
        <div class="confirm" role="alertdialog" aria-label="Confirm" aria-describedby="cancel-question">
          <p id="cancel-question">Cancel "{c.name}"? Whoever has not been sent it yet never will be.</p>
          <button type="button" class="button button-primary" ref={yes} onClick={() => void act("cancel")}>
            Yes, cancel it
          </button>
          <button type="button" class="button" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      )}
    </div>
  );
}
