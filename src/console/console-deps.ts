import type { CampaignCommands } from "../campaigns/index.js";
import type { TenantConfig } from "../config/index.js";
import type { TurnJournal } from "../conversation/index.js";
import type { MessageStore } from "../store/index.js";
import type { ConsoleActions } from "./console-actions.js";
import type { SessionSettings } from "./console-session.js";
import type { DashboardSource } from "./dashboard-figures.js";
import type { ConsoleEventBus } from "./ports.js";
import type { Simulator } from "./simulator.js";
import type { TemplateCatalog } from "./template-catalog.js";

/** What the console API is built from; the composition root gives the mode's adapters. */
export interface ConsoleDeps {
  readonly tenants: readonly TenantConfig[];
  /** The message log, publishing its changes on `events`. */
  readonly store: MessageStore;
  readonly actions: ConsoleActions;
  readonly events: ConsoleEventBus;
  readonly session: SessionSettings;
  readonly simulator: Simulator;
  readonly dashboard: DashboardSource;
  readonly templates: TemplateCatalog;
  /** Where turns that failed too often are kept (set aside) for an operator. */
  readonly turnJournal?: TurnJournal | undefined;
  /** Campaigns (create, start, pause, resume, cancel, report); absent without a shared database. */
  readonly campaigns?: CampaignCommands | undefined;
  /** Event streams this process serves at most. */
  readonly maxStreams: number;
  readonly now: () => number;
}
