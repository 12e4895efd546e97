import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type RunningEmbedded, startEmbedded } from "../../src/app/index.js";
import { createLogger } from "../../src/observability/index.js";
import { embeddedEnvConfig } from "../support/embedded-config.js";
import { type RunningFake, startFake } from "../support/fake-graph.js";

// The alert rules, their promtool tests and the Grafana dashboard in deploy/, checked against the gateway.
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const rulesDir = join(root, "deploy/prometheus");
const rulesFile = join(rulesDir, "sharpsharp-alerts.yml");
const rulesTestFile = join(rulesDir, "sharpsharp-alerts.test.yml");
const dashboardFile = join(root, "deploy/grafana/sharpsharp-dashboard.json");

const promtoolFound = spawnSync("promtool", ["--version"], { encoding: "utf8" }).status === 0;
const inCi = process.env.CI === "true";

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync("promtool", args, { cwd: rulesDir, encoding: "utf8", timeout: 120_000 });
  return { status: run.status, output: `${run.stdout ?? ""}${run.stderr ?? ""}${run.error?.message ?? ""}` };
}

/** Every `ss_…` name in a text (PromQL, YAML, annotations). */
function ssNames(text: string): Set<string> {
  return new Set([...text.matchAll(/\bss_[a-z0-9_]*[a-z0-9]/g)].map((match) => match[0]));
}

/** Sample names a Prometheus exposition holds, from its `# TYPE` lines (histograms: _bucket, _sum, _count). */
function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (name === undefined) continue;
    if (type === "histogram")
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(`${name}${suffix}`);
    else if (type === "summary") for (const suffix of ["", "_sum", "_count"]) names.add(`${name}${suffix}`);
    else names.add(name);
  }
  return names;
}

interface Panel {
  readonly type: string;
  readonly title?: string;
  readonly datasource?: { readonly type?: string; readonly uid?: string };
  readonly targets?: readonly {
    readonly expr?: string;
    readonly datasource?: unknown;
    readonly refId?: string;
  }[];
}

interface Dashboard {
  readonly schemaVersion: number;
  readonly panels: readonly Panel[];
  readonly templating: {
    readonly list: readonly { readonly name: string; readonly type: string; readonly query?: unknown }[];
  };
}

/** Grafana's reference to the dashboard's `datasource` variable. */
const DATASOURCE_VARIABLE = "$" + "{datasource}";

const dashboard = JSON.parse(readFileSync(dashboardFile, "utf8")) as Dashboard;
const dataPanels = dashboard.panels.filter((panel) => panel.type !== "row");

describe.skipIf(!promtoolFound && !inCi)(
  `the alert rules under promtool${promtoolFound ? "" : " (skipped: promtool is not installed; apt-get install prometheus)"}`,
  () => {
    it("finds promtool (in CI it must be installed: .ci/run installs Debian's prometheus)", () => {
      if (!promtoolFound)
        throw new Error("CI is set but promtool is not installed: the alert rules cannot be checked");
    });

    it("passes promtool check rules", () => {
      const { status, output } = promtool("check", "rules", rulesFile);
      expect(output).toMatch(/SUCCESS: \d+ rules found/);
      expect(status, output).toBe(0);
    });

    it("passes its promtool unit tests (each alert fired and not fired)", { timeout: 120_000 }, () => {
      const { status, output } = promtool("test", "rules", rulesTestFile);
      expect(status, output).toBe(0);
      expect(output).toContain("SUCCESS");
    });

    it("parses every dashboard query (as recording rules, Grafana's variables filled in)", () => {
      const rules = dataPanels.flatMap((panel, index) =>
        (panel.targets ?? []).map((target) => ({
          record: `dashboard:panel_${index}_${target.refId ?? "A"}`,
          expr: (target.expr ?? "")
            .replaceAll("$__rate_interval", "5m")
            .replaceAll("$__range", "6h")
            .replaceAll("$tenant", ".*"),
        })),
      );
      const dir = mkdtempSync(join(tmpdir(), "ss-dashboard-rules-"));
      try {
        const file = join(dir, "dashboard-queries.yml");
        writeFileSync(file, stringify({ groups: [{ name: "dashboard", rules }] }));
        const { status, output } = promtool("check", "rules", file);
        expect(status, output).toBe(0);
        expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);

describe("the alert rules and the dashboard", () => {
  const rulesText = readFileSync(rulesFile, "utf8");
  const dashboardQueries = [
    ...dataPanels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr ?? "")),
    ...dashboard.templating.list.map((variable) => JSON.stringify(variable.query ?? "")),
  ].join("\n");

  let fake: RunningFake;
  let running: RunningEmbedded;
  let dataDir: string;
  let exposed: Set<string>;

  beforeAll(async () => {
    // The embedded gateway registers every metric of the ingress and the worker on one registry.
    fake = await startFake();
    dataDir = mkdtempSync(join(tmpdir(), "ss-alert-rules-"));
    running = await startEmbedded(embeddedEnvConfig(fake.url, dataDir), {
      logger: createLogger({ level: "silent" }),
    });
    exposed = exposedNames(await (await fetch(`${running.adminUrl}/metrics`)).text());
  });

  afterAll(async () => {
    await running?.close();
    await fake?.fake.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it("uses only ss_ metrics the gateway exports, in the rules and their tests", () => {
    const used = new Set([...ssNames(rulesText), ...ssNames(readFileSync(rulesTestFile, "utf8"))]);
    expect(used.size).toBeGreaterThan(8);
    expect([...used].filter((name) => !exposed.has(name))).toEqual([]);
  });

  it("uses only ss_ metrics the gateway exports in the dashboard's queries", () => {
    const used = ssNames(dashboardQueries);
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((name) => !exposed.has(name))).toEqual([]);
  });

  it("reads no other metric than the gateway's and node_exporter's filesystem gauges", () => {
    const rules = parse(rulesText) as { groups: { rules: { alert: string; expr: string }[] }[] };
    const exprs = rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr));
    expect(exprs.length).toBeGreaterThan(8);
    const names = exprs.flatMap((expr) => [...expr.matchAll(/\b[a-z_]+_(?:total|seconds|bytes|ratio)\b/g)]);
    const foreign = new Set(names.map((match) => match[0]).filter((name) => !name.startsWith("ss_")));
    expect([...foreign].sort()).toEqual(["node_filesystem_avail_bytes", "node_filesystem_size_bytes"]);
  });

  it("has a dashboard whose every panel has a datasource and queries", () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.templating.list.map((variable) => `${variable.name}:${variable.type}`)).toEqual([
      "datasource:datasource",
      "tenant:query",
    ]);
    expect(dataPanels.length).toBeGreaterThan(10);
    for (const panel of dataPanels) {
      expect(panel.datasource, panel.title).toEqual({ type: "prometheus", uid: DATASOURCE_VARIABLE });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        expect(target.expr, panel.title).toMatch(/\S/);
        expect(target.datasource, panel.title).toEqual(panel.datasource);
      }
    }
  });
});
