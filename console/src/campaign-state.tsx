// A campaign's state as a badge, and which states change by themselves.
import type { CampaignState } from "./campaign-api";

const STATE_LABEL: Record<CampaignState, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  running: "Running",
  paused: "Paused",
  completed: "Completed",
  cancelled: "Cancelled",
};

export function StateBadge(props: { state: CampaignState; reason?: string }) {
  const reason = props.reason !== undefined && props.reason !== "operator" ? ` (${props.reason})` : "";
  return (
    <span class={`badge badge-state badge-${props.state}`} data-testid="campaign-state">
      {STATE_LABEL[props.state] ?? props.state}
      {reason}
    </span>
  );
}

/** States that change by themselves, so the page looks again every few seconds. */
export const isMoving = (state: CampaignState) => state === "running" || state === "scheduled";
