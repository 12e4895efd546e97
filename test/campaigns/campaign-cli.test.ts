import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CliProcess, spawnCli } from "../support/cli-process.js";
import { type RunningFake, startFake } from "../support/fake-graph.js";
import {
  audienceCsv,
  SHOP,
  SHOP_ENV,
  SHOP_NUMBER,
  SHOP_SECRET,
  shopTenantEntry,
} from "./shop-campaign-fixtures.js";

const EMAIL = "ada@shop.example";

/** `sharpsharp <command> args…` to its end: exit code and everything it printed. */
async function run(command: string, env: Record<string, string>, args: readonly string[]) {
  const cli = spawnCli(command, env, args);
  const code = await cli.exited();
  return { code, output: cli.output() };
}

describe("sharpsharp campaign against a running `sharpsharp start`", () => {
  let dir: string;
  let fake: RunningFake;
  let gateway: CliProcess | undefined;
  let webhookBase: string | undefined;
  let env: Record<string, string>;
  let client: Record<string, string>;
  let audience: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ss-campaign-cli-"));
    fake = await startFake({
      phoneNumberIds: [SHOP_NUMBER],
      autoStatuses: {
        webhookUrl: () => (webhookBase === undefined ? undefined : `${webhookBase}/webhook/${SHOP}`),
        appSecret: SHOP_SECRET,
        delayMs: 20,
        statuses: ["sent", "delivered", "read"],
      },
    });
    writeFileSync(join(dir, "tenants.json"), JSON.stringify({ tenants: [shopTenantEntry()] }));
    audience = join(dir, "audience.csv");
    writeFileSync(audience, audienceCsv(3, 1, "2348700"));
    env = {
      ...SHOP_ENV,
      SHARPSHARP_CONFIG: join(dir, "tenants.json"),
      SHARPSHARP_DATA_DIR: join(dir, "data"),
      GRAPH_API_BASE_URL: fake.url,
      HOST: "127.0.0.1",
      PORT: "0",
      ADMIN_PORT: "0",
      COALESCE_WINDOW_MS: "0",
      COALESCE_MAX_MS: "0",
      LOG_LEVEL: "info",
    };
    // Operators are made while the gateway is stopped: the embedded SQLite file has one writer.
    expect((await run("admin", env, ["create", "--email", EMAIL, "--name", "Ada"])).code).toBe(0);
    const token = await run("admin", env, ["token", "--email", EMAIL, "--name", "campaign cli"]);
    expect(token.code).toBe(0);
    const apiToken = /(sst_\S+)/.exec(token.output)?.[1] as string;
    gateway = spawnCli("start", env);
    webhookBase = (await gateway.waitFor(/sharpsharp running embedded on (http:\/\/127\.0\.0\.1:\d+)/))[1];
    const apiUrl = (await gateway.waitFor(/console on (http:\/\/127\.0\.0\.1:\d+)\//))[1] as string;
    client = { SHARPSHARP_API_URL: apiUrl, SHARPSHARP_API_TOKEN: apiToken };
  }, 60_000);

  afterAll(async () => {
    if (gateway?.alive()) {
      gateway.child.kill("SIGTERM");
      await gateway.exited();
    }
    await fake?.fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const campaign = (...args: string[]) => run("campaign", client, args);

  it("creates once, lists, starts and reports a campaign", async () => {
    const create = [
      "create",
      "--tenant",
      SHOP,
      "--name",
      "Flash sale",
      "--template",
      "december_sale",
      "--language",
      "en",
      "--body",
      "Hi {{1}}, {{2}} off today",
      "--audience",
      audience,
    ];
    const first = await campaign(...create);
    expect(first.code).toBe(0);
    const id = /^(\S+): created, draft, 3 recipients/m.exec(first.output)?.[1] as string;
    expect(id).toBeDefined();
    // The same command again (a retry after a timeout) is the same campaign.
    const again = await campaign(...create);
    expect(again.code).toBe(0);
    expect(again.output).toContain(`${id}: already created with this key, draft, 3 recipients`);

    const list = await campaign("list", "--tenant", SHOP);
    expect(list.code).toBe(0);
    expect(list.output.trim().split("\n")).toEqual([`${id}  draft      3 recipients  Flash sale`]);

    const start = await campaign("start", "--tenant", SHOP, id);
    expect(start).toEqual({ code: 0, output: `${id}: running\n` });
    await vi.waitFor(
      async () => {
        const json = await campaign("status", "--tenant", SHOP, id, "--json");
        expect(JSON.parse(json.output)).toMatchObject({ campaign: { state: "completed" }, read: 3 });
      },
      { timeout: 20_000, interval: 200 },
    );
    const status = await campaign("status", "--tenant", SHOP, id);
    expect(status.code).toBe(0);
    expect(status.output).toContain(`${id}  Flash sale  (completed)`);
    expect(status.output).toMatch(/^targeted {3}3$/m);
    expect(status.output).toMatch(/^sent {7}3 {3}delivered 3 {3}read 3$/m);
    expect(status.output).toMatch(/^billable {3}marketing 3$/m);
    const sends = fake.fake.messages().filter((m) => m.type === "template");
    expect(sends.map((m) => m.to).sort()).toEqual(["+2348700000001", "+2348700000002", "+2348700000003"]);
  }, 60_000);

  it("exits 2 with a message when no API token is set", async () => {
    const { SHARPSHARP_API_URL } = client as { SHARPSHARP_API_URL: string };
    const answer = await run("campaign", { SHARPSHARP_API_URL }, ["list", "--tenant", SHOP]);
    expect(answer.code).toBe(2);
    expect(answer.output).toContain("SHARPSHARP_API_TOKEN is not set");
  });

  it("exits 1 with a clear message when the API cannot be reached", async () => {
    const answer = await run("campaign", { ...client, SHARPSHARP_API_URL: "http://127.0.0.1:1" }, [
      "list",
      "--tenant",
      SHOP,
    ]);
    expect(answer.code).toBe(1);
    expect(answer.output).toContain("cannot reach the gateway's console API at http://127.0.0.1:1");
  });
});
