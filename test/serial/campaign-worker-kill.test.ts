import type pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { openPostgresCampaignStore, type PostgresCampaignStore } from "../../src/campaigns/postgres/index.js";
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
import { eventually } from "../support/eventually.js";
import { createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import {
  createTestPool,
  dropSchema,
  skipWithoutPostgres,
  TEST_DATABASE_URL,
  uniqueSchema,
} from "../support/postgres.js";
import { skipWithoutRedis } from "../support/redis.js";
import { createWorkerProcesses, type WorkerProcess } from "../support/worker-processes.js";

const AUDIENCE = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Row = RecipientRowState & { owner: string | null; wamid: string | null };

describe.skipIf(skipWithoutRedis || skipWithoutPostgres)("campaigns, Redis mode: a worker SIGKILLed", () => {
  let ingress: IngressHarness | undefined;
  let fake: CampaignFake | undefined;
  let workers: ReturnType<typeof createWorkerProcesses> | undefined;
  let pool: pg.Pool | undefined;
  let schema: string | undefined;
  afterEach(async () => {
    workers?.killAll();
    await fake?.fake.close();
    await ingress?.close();
    if (pool !== undefined && schema !== undefined) await dropSchema(pool, schema);
    await pool?.end();
    workers = fake = ingress = pool = schema = undefined;
  });

  it(`a campaign of ${AUDIENCE} over two workers, one killed twice mid-send: the other takes over its claims; each customer once, none twice; completed`, async () => {
    const t0 = Date.now();
    ingress = await createIngressHarness({ label: "campaign-kill" });
    // The fake posts its statuses to the ingress, which stays up: they reach whichever worker lives.
    const ingressUrl = await ingress.app.listen({ port: 0, host: "127.0.0.1" });
    const f = await startCampaignFake({ webhookUrl: `${ingressUrl}/webhook`, latencyMs: 15 });
    fake = f;
    pool = createTestPool();
    schema = uniqueSchema("campaign_kill");
    const db = pool;
    const recipients = `"${schema}".campaign_recipients`;
    const store: PostgresCampaignStore = await openPostgresCampaignStore({ pool, schema });
    const rowsOf = async (campaignId: string) =>
      (
        await db.query<Row>(
          `SELECT customer_id AS "customerId", state, owner, resends, wamid FROM ${recipients}
           WHERE campaign_id = $1 ORDER BY seq`,
          [campaignId],
        )
      ).rows;
    workers = createWorkerProcesses({
      prefix: ingress.prefix,
      graphUrl: f.url,
      env: {
        DATABASE_URL: TEST_DATABASE_URL,
        DATABASE_SCHEMA: schema,
        WHATSAPP_PHONE_NUMBER_ID: CAMPAIGN_NUMBER,
        // 40 campaign sends/s for the number, shared by the workers through Redis: 400 in about 10 s, so
        // most of the audience is still unsent when the restarted worker is up (a start takes 1–3 s on CI).
        WHATSAPP_THROUGHPUT_MPS: "50",
        CAMPAIGN_LEASE_MS: "2000",
        CAMPAIGN_UNKNOWN_GRACE_MS: "4000",
        CAMPAIGN_RECOVER_EVERY_MS: "250",
        // Status jobs the dead worker held are taken over quickly too.
        WORKER_LOCK_MS: "1000",
        WORKER_STALLED_INTERVAL_MS: "500",
      },
    });
    const w = workers;
    const survivor = w.spawn();
    let victim = w.spawn();
    await Promise.all([survivor.ready(), victim.ready()]);
    const audience = killAudience(AUDIENCE);
    const campaignId = await launchCampaign(store, audience);

    const snapshots: KillSnapshot[] = [];
    const heldBy = (rows: readonly Row[], pid: number | undefined) =>
      rows.filter((row) => row.state === "sending" && row.owner?.includes(`:${pid}:`));
    /** Once `worker` holds claims, kills it as the nth template send from then reaches Meta. */
    const killOnSend = async (worker: WorkerProcess, nth: number) => {
      const pid = worker.child.pid;
      const exited = new Promise((resolve) => worker.child.once("exit", resolve));
      await eventually(async () => heldBy(await rowsOf(campaignId), pid).length > 0, 15_000, 10);
      f.armOnSend(nth, () => worker.child.kill("SIGKILL"));
      await exited;
      // Read at once, before the statuses of what it sent settle its claims.
      snapshots.push(snapshotAtKill(heldBy(await rowsOf(campaignId), pid), f.sendsByCustomer()));
    };
    await killOnSend(victim, 40 + Math.floor(Math.random() * 60));
    const firstKillAt = Date.now() - t0;
    // Restarted at once: a runner that just started resends nothing before its own grace.
    victim = w.spawn();
    await victim.ready();
    await killOnSend(victim, 1 + Math.floor(Math.random() * 10));

    await eventually(
      async () => (await store.get(CAMPAIGN_TENANT, campaignId))?.state === "completed",
      40_000,
      100,
    );
    const completedAfterMs = Date.now() - t0;
    // A late status must change nothing.
    await sleep(500);
    const sends = f.sendsByCustomer();
    const { twice, missing } = onceEach(audience, sends);
    const rows = await rowsOf(campaignId);
    const report = await store.report(CAMPAIGN_TENANT, campaignId, Date.now());
    const figures = settlementFigures(snapshots, rows);
    process.stdout.write(
      `campaign worker SIGKILL: ${AUDIENCE} recipients over 2 workers, one killed twice (first at ${firstKillAt} ms), completed after ${completedAfterMs} ms; ` +
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
    const wamidOf = new Map(f.fake.messages().map((m) => [String(m.to).replace(/\D/g, ""), m.id]));
    expect(rows.filter((row) => row.wamid !== wamidOf.get(row.customerId))).toEqual([]);
    // The kills landed mid-send: claims were left, and recovery settled each (a status, or a resend).
    expect(figures.abandoned).toBeGreaterThan(0);
    expect(figures.resentUnabandoned).toBe(0);
    expect(figures.lostClaims).toBe(0);
    expect(survivor.child.exitCode).toBeNull();
  }, 60_000);
});
