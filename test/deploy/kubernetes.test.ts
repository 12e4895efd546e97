import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Registry } from "prom-client";
import { describe, expect, it, type TestContext } from "vitest";
import { loadConfig, SECRET_ENV_NAMES } from "../../src/config/index.js";
import { createQueueMetrics } from "../../src/observability/index.js";
import { QUEUE_NAMES } from "../../src/queue/index.js";
import {
  type Container,
  type Deployment,
  deploymentsOf,
  type KubeObject,
  objectOf,
  objectsOf,
} from "./kube-objects.js";
import { validateKubernetesObject } from "./kubernetes-schemas.js";
import { probeKubectl, readManifest, renderKustomization } from "./kustomize.js";

// deploy/kubernetes rendered as `kubectl apply -k` would send it, validated offline against the Kubernetes
// schemas, and held to what docs/operations.md#kubernetes promises.
const root = fileURLToPath(new URL("../../", import.meta.url));
const deployDir = join(root, "deploy/kubernetes");
const SECRET_NAME = "sharpsharp-secrets";
const OVERLAYS = ["production", "small"] as const;
type Overlay = (typeof OVERLAYS)[number];

const kubectl = probeKubectl();
const renders = new Map<Overlay, KubeObject[]>();

/** The overlay's objects; skips the test (with the reason) without kubectl, and fails it in CI. */
function rendered(overlay: Overlay, context: TestContext): KubeObject[] {
  if (!kubectl.found) {
    if (process.env.CI !== undefined) throw new Error(`CI is set but ${kubectl.reason}: see .ci/run`);
    context.skip(`${kubectl.reason}: deploy/kubernetes is not rendered`);
  }
  let objects = renders.get(overlay);
  if (objects === undefined) {
    objects = renderKustomization(join(deployDir, "overlays", overlay));
    renders.set(overlay, objects);
  }
  return objects;
}

const secretExample = objectOf(readManifest(join(deployDir, "secret.example.yaml")), "Secret", SECRET_NAME);
const secretExampleData = secretExample.stringData as Record<string, string>;

/** Every `ss_*` metric name registered in src (prom-client's `name: "ss_…"`). */
function metricNamesInSource(dir = join(root, "src")): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const name of metricNamesInSource(path)) names.add(name);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
      for (const match of readFileSync(path, "utf8").matchAll(/name: "(ss_[a-z0-9_]+)"/g))
        names.add(match[1] ?? "");
    }
  }
  return names;
}

/** The CLI's hard stop after SIGTERM, ms, read from src/cli.ts: `grace + margin` for ingress and worker. */
function hardStopMs(command: string, graceMs: number): number {
  const cli = readFileSync(join(root, "src/cli.ts"), "utf8");
  const margin = /closeOnSignals\(logger, running, config\.shutdownGraceMs \+ ([\d_]+)\)/.exec(cli);
  const fallback = /forceAfterMs = ([\d_]+)/.exec(cli);
  if (margin === null || fallback === null)
    throw new Error("src/cli.ts no longer says how long shutdown may take");
  const ms = (text: string | undefined) => Number((text ?? "").replaceAll("_", ""));
  return command === "console" ? ms(fallback[1]) : graceMs + ms(margin[1]);
}

/** The environment a container starts with: its ConfigMap, its literal env, the Secret (the example's keys). */
function environmentOf(container: Container, objects: readonly KubeObject[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef !== undefined) {
      Object.assign(env, objectOf(objects, "ConfigMap", source.configMapRef.name ?? "").data);
    }
    if (source.secretRef !== undefined) Object.assign(env, secretExampleData);
  }
  for (const variable of container.env ?? [])
    if (variable.value !== undefined) env[variable.name] = variable.value;
  return env;
}

const looksSecret = (name: string) =>
  SECRET_ENV_NAMES.has(name) || /(SECRET|TOKEN|PASSWORD|API_KEY)$/.test(name);

describe("kubectl", () => {
  it("renders kustomizations (kustomize v5+; in CI it must be installed)", (context) => {
    if (!kubectl.found) {
      if (process.env.CI !== undefined) throw new Error(`CI is set but ${kubectl.reason}: see .ci/run`);
      context.skip(kubectl.reason);
    }
    expect(kubectl.found && kubectl.kustomizeMajor).toBeGreaterThanOrEqual(5);
  });
});

describe("the examples kept out of the kustomizations", () => {
  it("validate: secret.example.yaml and keda/hpa-example.yaml", () => {
    const examples = [
      ...readManifest(join(deployDir, "secret.example.yaml")),
      ...readManifest(join(deployDir, "keda/hpa-example.yaml")),
    ];
    expect(examples.map((object) => object.kind).sort()).toEqual(["HorizontalPodAutoscaler", "Secret"]);
    for (const object of examples) expect(validateKubernetesObject(object), object.kind).toEqual([]);
  });

  it("the Secret example holds every secret the default tenant and Redis mode need, as placeholders", () => {
    for (const name of ["WHATSAPP_APP_SECRET", "WHATSAPP_VERIFY_TOKEN", "WHATSAPP_TOKEN", "REDIS_URL"]) {
      expect(secretExampleData, name).toHaveProperty(name);
    }
    expect(secretExampleData).toHaveProperty("DATABASE_URL");
    expect(secretExampleData).toHaveProperty("ADMIN_TOKEN");
    for (const [name, value] of Object.entries(secretExampleData)) expect(value, name).toMatch(/change-me/);
  });

  it("no kustomization lists the Secret example", () => {
    for (const dir of ["base", "keda", "overlays/production", "overlays/small"]) {
      const [kustomization] = readManifest(join(deployDir, dir, "kustomization.yaml"));
      const listed = [kustomization?.resources, kustomization?.components].flat().filter(Boolean);
      expect(listed.length, dir).toBeGreaterThan(0);
      expect(
        listed.filter((entry) => String(entry).includes("secret")),
        dir,
      ).toEqual([]);
    }
  });
});

describe.each(OVERLAYS)("overlay %s", (overlay) => {
  it("renders, and every object validates against the Kubernetes schemas", (context) => {
    const objects = rendered(overlay, context);
    expect(objects.length).toBeGreaterThan(5);
    for (const object of objects) {
      expect(validateKubernetesObject(object), `${object.kind}/${object.metadata.name}`).toEqual([]);
      expect(object.metadata.namespace, `${object.kind}/${object.metadata.name}`).toBe("sharpsharp");
    }
    // Secrets are made apart from the manifests, never rendered from the repository.
    expect(objects.filter((object) => object.kind === "Secret")).toEqual([]);
  });

  it("runs ingress, worker and console with the configuration they load", (context) => {
    const objects = rendered(overlay, context);
    const deployments = deploymentsOf(objects);
    expect(deployments.map((d) => d.command).sort()).toEqual(["console", "ingress", "worker"]);
    for (const { deployment, containers } of deployments) {
      for (const container of containers) {
        expect(container.image, deployment.metadata.name).toMatch(
          /^registry\.example\.com\/sharpsharp:\d+\.\d+\.\d+$/,
        );
        // The real config loader, on the ConfigMap, the literal env and the Secret example's keys.
        expect(() => loadConfig({ env: environmentOf(container, objects), cwd: root })).not.toThrow();
      }
    }
  });

  it("probes the ingress and the workers on the public port: readiness /readyz, liveness /healthz", (context) => {
    const objects = rendered(overlay, context);
    for (const { deployment, containers, command } of deploymentsOf(objects)) {
      if (command !== "ingress" && command !== "worker") continue;
      const [container] = containers as [Container];
      const port = Number(loadConfig({ env: environmentOf(container, objects), cwd: root }).server.port);
      const named = (name: unknown) => container.ports?.find((p) => p.name === name)?.containerPort ?? name;
      expect(container.readinessProbe?.httpGet?.path, deployment.metadata.name).toBe("/readyz");
      expect(named(container.readinessProbe?.httpGet?.port), deployment.metadata.name).toBe(port);
      expect(container.livenessProbe?.httpGet?.path, deployment.metadata.name).toBe("/healthz");
      expect(named(container.livenessProbe?.httpGet?.port), deployment.metadata.name).toBe(port);
    }
  });

  it("gives every pod longer than its drain: terminationGracePeriodSeconds > preStop + shutdown grace + hard stop", (context) => {
    const objects = rendered(overlay, context);
    for (const { deployment, pod, containers, command } of deploymentsOf(objects)) {
      const [container] = containers as [Container];
      const config = loadConfig({ env: environmentOf(container, objects), cwd: root });
      const preStopMs = (container.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
      const drainMs = preStopMs + hardStopMs(command, config.shutdownGraceMs);
      expect(pod.terminationGracePeriodSeconds, deployment.metadata.name).toBeDefined();
      expect((pod.terminationGracePeriodSeconds ?? 0) * 1000, deployment.metadata.name).toBeGreaterThan(
        drainMs,
      );
    }
  });

  it("takes every secret from the Secret, never from a literal or the ConfigMap", (context) => {
    const objects = rendered(overlay, context);
    for (const configMap of objects.filter((object) => object.kind === "ConfigMap")) {
      const keys = Object.keys((configMap.data as Record<string, string> | undefined) ?? {});
      expect(keys.filter(looksSecret), configMap.metadata.name).toEqual([]);
    }
    for (const { deployment, containers } of deploymentsOf(objects)) {
      for (const container of containers) {
        expect(container.envFrom?.map((source) => source.secretRef?.name)).toContain(SECRET_NAME);
        for (const variable of container.env ?? []) {
          if (!looksSecret(variable.name)) continue;
          expect(variable.value, `${deployment.metadata.name}: ${variable.name}`).toBeUndefined();
          expect(variable.valueFrom?.secretKeyRef?.name, variable.name).toBe(SECRET_NAME);
        }
      }
    }
  });

  it("runs non-root, on a read-only root file system, with /tmp on an emptyDir", (context) => {
    for (const { deployment, pod, containers } of deploymentsOf(rendered(overlay, context))) {
      const name = deployment.metadata.name;
      expect(pod.securityContext?.runAsNonRoot, name).toBe(true);
      expect(pod.automountServiceAccountToken, name).toBe(false);
      for (const container of containers) {
        expect(container.securityContext?.readOnlyRootFilesystem, name).toBe(true);
        expect(container.securityContext?.allowPrivilegeEscalation, name).toBe(false);
        expect(container.securityContext?.capabilities?.drop, name).toEqual(["ALL"]);
        expect(container.resources?.requests?.memory, name).toBeDefined();
        expect(container.resources?.limits?.memory, name).toBeDefined();
        const tmp = container.volumeMounts?.find((mount) => mount.mountPath === "/tmp");
        const volume = pod.volumes?.find((v) => v.name === tmp?.name);
        expect(volume?.emptyDir, `${name}: /tmp`).toBeDefined();
      }
    }
  });

  it("has PodDisruptionBudgets for the ingress and the worker pods", (context) => {
    const objects = rendered(overlay, context);
    const budgets = objectsOf(objects, "PodDisruptionBudget");
    for (const command of ["ingress", "worker"]) {
      const { deployment } = deploymentsOf(objects).find((d) => d.command === command) as {
        deployment: Deployment;
      };
      const podLabels = deployment.spec?.template.metadata?.labels ?? {};
      const covering = budgets.filter((budget) =>
        Object.entries(
          (budget.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
        ).every(([key, value]) => podLabels[key] === value),
      );
      expect(covering, command).toHaveLength(1);
    }
  });

  it("scrapes every pod's admin /metrics with the ServiceMonitor, with the token from the Secret", (context) => {
    const objects = rendered(overlay, context);
    const [monitor] = objectsOf(objects, "ServiceMonitor");
    const spec = monitor?.spec as {
      selector: { matchLabels: Record<string, string> };
      endpoints: {
        port: string;
        path: string;
        authorization: { credentials: { name: string; key: string } };
      }[];
    };
    const services = objectsOf(objects, "Service").filter((service) =>
      Object.entries(spec.selector.matchLabels).every(
        ([key, value]) => service.metadata.labels?.[key] === value,
      ),
    );
    expect(services).toHaveLength(1);
    const service = services[0] as KubeObject;
    const serviceSpec = service.spec as {
      selector: Record<string, string>;
      ports: { name: string; targetPort: string }[];
    };
    for (const endpoint of spec.endpoints) {
      expect(endpoint.path).toBe("/metrics");
      expect(endpoint.authorization.credentials).toEqual({ name: SECRET_NAME, key: "ADMIN_TOKEN" });
      const servicePort = serviceSpec.ports.find((port) => port.name === endpoint.port);
      for (const { deployment, containers } of deploymentsOf(objects)) {
        const podLabels = deployment.spec?.template.metadata?.labels ?? {};
        expect(Object.entries(serviceSpec.selector).every(([key, value]) => podLabels[key] === value)).toBe(
          true,
        );
        const [container] = containers as [Container];
        const adminPort = loadConfig({ env: environmentOf(container, objects), cwd: root }).admin.port;
        const target = container.ports?.find((port) => port.name === servicePort?.targetPort);
        expect(target?.containerPort, deployment.metadata.name).toBe(adminPort);
      }
    }
  });

  if (overlay === "small") {
    it("runs one ingress, one worker and no autoscaler", (context) => {
      const objects = rendered(overlay, context);
      const replicas = Object.fromEntries(
        deploymentsOf(objects).map((d) => [d.command, d.deployment.spec?.replicas]),
      );
      expect(replicas).toEqual({ ingress: 1, worker: 1, console: 1 });
      expect(objectsOf(objects, "ScaledObject")).toEqual([]);
      expect(objectsOf(objects, "HorizontalPodAutoscaler")).toEqual([]);
    });
  }

  if (overlay === "production") {
    it("scales the workers with KEDA on the real queue gauges: 250 waiting turns, oldest waiting age", async (context) => {
      const objects = rendered(overlay, context);
      const [scaled] = objectsOf(objects, "ScaledObject");
      const spec = scaled?.spec as {
        scaleTargetRef: { name: string };
        minReplicaCount: number;
        maxReplicaCount: number;
        triggers: {
          type: string;
          metricType?: string;
          metadata: { query: string; threshold: string; serverAddress: string };
        }[];
      };
      const target = deploymentsOf(objects).find(
        (d) => d.deployment.metadata.name === spec.scaleTargetRef.name,
      );
      expect(target?.command).toBe("worker");
      // The autoscaler owns the count: a replicas field would reset it on each apply.
      expect(target?.deployment.spec?.replicas).toBeUndefined();
      // The workers report the backlog, so at least one runs.
      expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(spec.maxReplicaCount).toBeGreaterThan(spec.minReplicaCount);

      // The gauges as a worker's /metrics serves them: their names and labels.
      const registry = new Registry();
      createQueueMetrics(registry, {
        sample: async () => [{ queue: QUEUE_NAMES.turns, counts: { waiting: 300 }, oldestWaitingAt: 0 }],
        now: () => 20_000,
      });
      const exposition = await registry.metrics();
      const inSource = metricNamesInSource();
      const queried = new Set<string>();
      for (const trigger of spec.triggers) {
        expect(trigger.type).toBe("prometheus");
        expect(trigger.metadata.serverAddress).toMatch(/^https?:\/\//);
        for (const [, metric, selector] of trigger.metadata.query.matchAll(/(ss_[a-z0-9_]+)\{([^}]*)\}/g)) {
          queried.add(metric ?? "");
          expect(inSource, `${metric} is not a metric of src/`).toContain(metric);
          const labels = Object.fromEntries(
            [...(selector ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
          );
          // Prometheus adds the namespace from the ServiceMonitor's target: the ScaledObject's own.
          expect(labels.namespace).toBe(scaled?.metadata.namespace);
          expect(labels.queue).toBe(QUEUE_NAMES.turns);
          for (const name of Object.keys(labels).filter((name) => name !== "namespace")) {
            expect(exposition, `${metric} has no label ${name}`).toMatch(
              new RegExp(`^${metric}\\{[^}]*\\b${name}="`, "m"),
            );
          }
        }
        // Each worker reports the same shared queue: max, never a sum over workers.
        expect(trigger.metadata.query).toMatch(/^max\(/);
      }
      expect([...queried].sort()).toEqual(["ss_queue_depth", "ss_queue_oldest_waiting_seconds"]);
      const depth = spec.triggers.find((trigger) => trigger.metadata.query.includes("ss_queue_depth"));
      expect(depth?.metadata.query).toContain('state="waiting"');
      expect(depth?.metadata.threshold).toBe("250");
      expect(depth?.metricType ?? "AverageValue").toBe("AverageValue");
    });
  }
});
