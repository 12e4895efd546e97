import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteCampaignStore } from "../../src/campaigns/sqlite/index.js";
import { openSqliteDatabase } from "../../src/sqlite/index.js";
import {
  CAMPAIGN_NUMBER,
  CAMPAIGN_TENANT,
  type CampaignFake,
  type KillSnapshot,
  killAudience,
  launchCampaign,
  onceEach,
  type RecipientRowState,
  settlementFigures,
  snapshotAtKill,
  startCampaignFake,
} from "../support/campaign-kill.js";
import { type EmbeddedProcess, spawnEmbedded } from "../support/embedded-process.js";
import { eventually } from "../support/eventually.js";
import { startWebhookRelay, type WebhookRelay } from "../support/webhook-relay.js";

const AUDIENCE = 600;
const KILLS = 6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens the stopped gateway's database, runs `use`, closes it (the owner lock allows one process). */
async function withStore<T>(
  dataDir: string,
  use: (store: ReturnType<typeof createSqliteCampaignStore>, rows: (id: string) => Row[]) => Promise<T>,
): Promise<T> {
  const db = openSqliteDatabase({ dataDir });
  try {
    const store = createSqliteCampaignStore(db);
    const rows = db.prepare<[string], Row>(
      `SELECT customer_id AS customerId, state, resends, wamid FROM store_campaign_recipients
       WHERE campaign_id = ? ORDER BY seq`,
    );
    return await use(store, (id) => rows.all(id));
  } finally {
    db.close();
  }
}
type Row = RecipientRowState & { wamid: string | null };

describe("campaigns, embedded: kill -9 mid-campaign", () => {
  let relay: WebhookRelay | undefined;
  let fake: CampaignFake | undefined;
  let processes: EmbeddedProcess[] = [];
  let dataDir: string | undefined;
  afterEach(async () => {
    for (const p of processes)
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
    processes = [];
    await fake?.fake.close();
    await relay?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${KILLS} kills at random points of ${AUDIENCE} recipients: each sent the template once, none twice, and the campaign completes`, async () => {
    const t0 = Date.now();
    relay = await startWebhookRelay();
    const f = await startCampaignFake({ webhookUrl: relay.url, latencyMs: 15 });
    fake = f;
    dataDir = mkdtempSync(join(tmpdir(), "ss-campaign-kill-"));
    const dir = dataDir;
    const audience = killAudience(AUDIENCE);
    const campaignId = await withStore(dir, (store) => launchCampaign(store, audience));
    const env = {
      WHATSAPP_PHONE_NUMBER_ID: CAMPAIGN_NUMBER,
      // 120 campaign sends/s (80%): 24 claimed each 200 ms tick, 600 in about 5 s without kills.
      WHATSAPP_THROUGHPUT_MPS: "150",
      CAMPAIGN_LEASE_MS: "2000",
      CAMPAIGN_UNKNOWN_GRACE_MS: "4000",
      CAMPAIGN_RECOVER_EVERY_MS: "250",
      LOG_LEVEL: "info",
    };
    const start = async () => {
      const p = spawnEmbedded({ dataDir: dir, graphUrl: f.url, env });
      processes.push(p);
      relay?.setTarget(`${await p.ready()}/webhook`);
      return p;
    };

    const snapshots: KillSnapshot[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const p = await start();
      // Three ways, in turn: as the first send after the restart reaches Meta (the first claim's
      // sends leave at once, the pace's burst being full: the claim must already be committed); as
      // a later send arrives (that tick's claims in every state: sent, in flight, not yet sent);
      // and a moment after one, at random.
      const mode = kill % 3;
      const nth = mode === 0 ? 1 : 15 + Math.floor(Math.random() * 50);
      const delay = mode === 2 ? 1 + Math.floor(Math.random() * 200) : 0;
      f.armOnSend(nth, () => {
        if (delay === 0) p.child.kill("SIGKILL");
        else setTimeout(() => p.child.kill("SIGKILL"), delay);
      });
      await p.exited();
      relay.setTarget(undefined);
      // Sends the dead process had written reach the fake after its latency: Meta has them too.
      await sleep(100);
      const sends = f.sendsByCustomer();
      snapshots.push(await withStore(dir, async (_, rows) => snapshotAtKill(rows(campaignId), sends)));
    }

    const last = await start();
    await eventually(() => /campaign completed/.test(last.output()), 40_000, 50);
    const completedAfterMs = Date.now() - t0;
    // Statuses still on their way are applied; a late one must change nothing.
    await relay.drained(5_000);
    await sleep(300);
    last.child.kill("SIGTERM");
    await last.exited();

    const sends = f.sendsByCustomer();
    const { twice, missing } = onceEach(audience, sends);
    const { report, rows } = await withStore(dir, async (store, rowsOf) => ({
      report: await store.report(CAMPAIGN_TENANT, campaignId, Date.now()),
      rows: rowsOf(campaignId),
    }));
    const figures = settlementFigures(snapshots, rows);
    process.stdout.write(
      `campaign embedded kill -9: ${KILLS} kills, ${AUDIENCE} recipients, completed after ${completedAfterMs} ms; ` +
        `claims left by the kills ${figures.abandoned} (per kill ${figures.perKill.join(" ")}): ` +
        `settled by their status ${figures.reconciledByStatus}, resent after the grace ${figures.resentAfterGrace}; ` +
        `claims lost ${figures.lostClaims}; sends at the fake ${f.fake.messages().length}, ` +
        `customers twice ${twice.length}, never ${missing.length}\n`,
    );
    expect(twice).toEqual([]);
    expect(missing).toEqual([]);
    expect(f.fake.messages()).toHaveLength(AUDIENCE);
    expect(report?.campaign.state).toBe("completed");
    expect(report).toMatchObject({ targeted: AUDIENCE, sent: AUDIENCE, pending: 0, sending: 0, unknown: 0 });
    // Every recipient settled with the wamid Meta gave its one message.
    const wamidOf = new Map(f.fake.messages().map((m) => [String(m.to).replace(/\D/g, ""), m.id]));
    expect(rows.filter((row) => row.wamid !== wamidOf.get(row.customerId))).toEqual([]);
    // The kills landed mid-send: claims were left, and recovery settled each (a status, or a resend).
    expect(figures.abandoned).toBeGreaterThan(0);
    expect(figures.resentUnabandoned).toBe(0);
    expect(figures.lostClaims).toBe(0);
  }, 60_000);
});
