import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../../bin/sharpsharp.js", import.meta.url));

function router(args: string[], stdin = "", env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, "router", ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe("sharpsharp router classify (the built CLI)", () => {
  it("answers one JSON line per input line, in order, with intent, confidence, resolved and slots", async () => {
    const input = [
      // With INJONGO in training, a trailing ", wetin dey sup?" leaves this just under the failed_transaction threshold.
      { id: "a", text: "I sharp sharp transfer ₦15k since morning, my account never credit" },
      { id: "b", text: "Chelsea go carry last for league this season, mark my words" },
      { id: "c", text: "I no want balance, I want to know why una charge me twice" },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n");
    const { code, stdout } = await router(["classify"], `${input}\n`);
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.id)).toEqual(["a", "b", "c"]);
    expect(lines[0]).toMatchObject({
      intent: "failed_transaction",
      resolved: true,
      slots: { amount: 15000, date: "this_morning" },
    });
    expect(lines[1]).toMatchObject({ intent: "out_of_scope" });
    expect(lines[2]).toMatchObject({ resolved: false });
    for (const line of lines) expect(line.confidence).toBeGreaterThanOrEqual(0);
  });

  it("reports a malformed line in place and exits 1, still answering the rest", async () => {
    const { code, stdout, stderr } = await router(
      ["classify"],
      'not json\n{"id":"x","text":"hello"}\n{"id":"y"}\n',
    );
    expect(code).toBe(1);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ id: null, error: expect.any(String) });
    expect(lines[1]).toMatchObject({ id: "x", intent: "greeting" });
    expect(lines[2]).toMatchObject({ id: "y", error: expect.any(String) });
    expect(stderr).toMatch(/line 1: expected/);
  });

  it("--tenant resolves only the tenant's enabled intents, and names an unknown tenant", async () => {
    const dir = mkdtempSync(join(tmpdir(), "router-cli-"));
    const config = join(dir, "tenants.json");
    writeFileSync(
      config,
      JSON.stringify({
        tenants: [
          {
            id: "shop",
            appSecretEnv: "SHOP_SECRET",
            verifyTokenEnv: "SHOP_VERIFY",
            phoneNumberIds: ["106540352242922"],
            router: { enabledIntents: ["greeting", "order_status"] },
          },
        ],
      }),
    );
    const env = { SHARPSHARP_CONFIG: config, SHOP_SECRET: "s", SHOP_VERIFY: "v" };
    const input = '{"id":"1","text":"abeg my transfer never enter since morning"}\n';
    const shop = await router(["classify", "--tenant", "shop"], input, env);
    expect(JSON.parse(shop.stdout)).toMatchObject({ intent: "failed_transaction", resolved: false });
    const unknown = await router(["classify", "--tenant", "nobody"], input, env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no tenant "nobody"/);
  });
});

describe("sharpsharp router train --tenant (the built CLI)", () => {
  it("trains the tenant's custom intents into the data directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "router-cli-"));
    const config = join(dir, "tenants.json");
    const examples = [
      "wetin una get for menu",
      "send me your menu",
      "una get jollof?",
      "abeg send menu",
      "what's on the menu today",
      "can I see the menu please",
      "wetin una dey sell today",
      "which food una get now",
      "menu and prices abeg",
      "how much be jollof rice",
    ];
    writeFileSync(
      config,
      JSON.stringify({
        tenants: [
          {
            id: "shop",
            appSecretEnv: "SHOP_SECRET",
            verifyTokenEnv: "SHOP_VERIFY",
            phoneNumberIds: ["106540352242922"],
            router: { custom: [{ intent: "menu", examples, reply: { text: "Jollof ₦2,500" } }] },
          },
        ],
      }),
    );
    const env = { SHARPSHARP_CONFIG: config, SHOP_SECRET: "s", SHOP_VERIFY: "v", SHARPSHARP_DATA_DIR: dir };
    const trained = await router(["train", "--tenant", "shop"], "", env);
    expect(trained.code).toBe(0);
    const file = join(dir, "router-custom", "shop.json");
    expect(trained.stdout).toContain(file);
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      tenant: "shop",
      classes: ["_none", "menu"],
    });
  }, 60_000);
});

describe("sharpsharp router eval", () => {
  it("scores a labelled file and the keyword baseline", async () => {
    const dir = mkdtempSync(join(tmpdir(), "router-eval-"));
    const file = join(dir, "sample.jsonl");
    writeFileSync(
      file,
      [
        { text: "abeg my transfer never enter since morning", intent: "failed_transaction", lang: "pcm" },
        { text: "good morning", intent: "greeting", lang: "en" },
        {
          text: "I no want balance, I want to know why una charge me twice",
          intent: "needs_agent",
          lang: "pcm",
        },
      ]
        .map((row) => JSON.stringify(row))
        .join("\n"),
    );
    const classifier = await router(["eval", file, "--json"]);
    expect(classifier.code).toBe(0);
    const [{ report }] = JSON.parse(classifier.stdout) as [{ report: Record<string, unknown> }];
    expect(report).toMatchObject({ messages: 3, needsAgentMessages: 1, falseResolutionRate: 0 });
    const keyword = await router(["eval", file, "--baseline", "keyword"]);
    expect(keyword.stdout).toMatch(/keyword list/);
    const bad = await router(["eval", file, "--baseline", "magic"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown baseline/);
  });

  it("prints the one report: every set, per language, with false resolution, and says what it left out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "router-report-"));
    mkdirSync(join(dir, "afrisenti-pcm"));
    // A stand-in for AfriSenti's dev file: two chatter tweets, one of them the same as a trained tweet would be skipped.
    writeFileSync(
      join(dir, "afrisenti-pcm", "pcm_dev.tsv"),
      "tweet\tlabel\n@user Chelsea go carry last this season\tnegative\nthis jollof sweet die\tpositive\n",
    );
    const { code, stdout } = await router(["eval", "--quick", "--shared", dir]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\| our test split \| ours \| \d+ \| [\d.]+% \| [\d.]+% \| [\d.]+% \(n=\d+\) \|/);
    expect(stdout).toMatch(/\| mixed traffic sample \(chatter: tweets in our test split\) \|/);
    expect(stdout).toMatch(/\| real Pidgin complaints \(AfriSenti pcm_dev, needs agent\) \| real \| 17 \|/);
    expect(stdout).toMatch(/\| AfriSenti pcm dev tweets \(chatter\) \| real \| 2 \|/);
    expect(stdout).toMatch(/\| our test split \| yo \| \d+ \|/);
    expect(stdout).toMatch(/not in this report: INJONGO cross-validation/);
    const json = await router(["eval", "--quick", "--json"]);
    const rows = JSON.parse(json.stdout) as { set: string; report: { messages: number } }[];
    expect(rows.map((row) => row.set)).toContain("our test split");
    // Two evaluations in child processes: ~8 s on a quiet machine, well past 20 s on a busy one.
  }, 60_000);

  it("refuses an unknown subcommand with the usage", async () => {
    const { code, stderr } = await router(["fly"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown router command "fly"/);
  });
});
