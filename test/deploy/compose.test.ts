import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { envSchema } from "../../src/config/env-schema.js";
import { loadConfig, SECRET_ENV_NAMES } from "../../src/config/index.js";
import {
  type ComposeFile,
  type ComposeService,
  composeSchemaValidator,
  environmentOf,
  interpolate,
  interpolatedNames,
  parseDotEnv,
  readComposeFile,
} from "./compose-files.js";
import { instructionsOf, parseDockerfile } from "./dockerfile-model.js";

// deploy/compose validated offline against the Compose Specification's schema, and held to what
// docs/operations.md#container-image-and-docker-compose promises.
const root = fileURLToPath(new URL("../../", import.meta.url));
const composeDir = join(root, "deploy/compose");
const FILES = ["compose.yaml", "compose.embedded.yaml"] as const;
const IMAGE = `\${SHARPSHARP_IMAGE:-sharpsharp:local}`;

const validateCompose = composeSchemaValidator();
const files = new Map<string, ComposeFile>(
  FILES.map((file) => [file, readComposeFile(join(composeDir, file))]),
);
const texts = new Map(FILES.map((file) => [file, readFileSync(join(composeDir, file), "utf8")]));
const exampleText = readFileSync(join(composeDir, ".env.example"), "utf8");
const example = parseDotEnv(exampleText);
const haproxyConfig = readFileSync(join(composeDir, "haproxy.cfg"), "utf8");

const runtimeStage = parseDockerfile(readFileSync(join(root, "Dockerfile"), "utf8")).stages.at(-1);
/** The ENV of the image's runtime stage: what every container starts with before Compose's environment. */
const imageEnvironment = new Map<string, string>(
  instructionsOf(runtimeStage ?? { name: "", base: "", instructions: [] }, "ENV").flatMap((env) =>
    env.args.map((pair) => pair.split("=", 2) as [string, string]),
  ),
);
const imageHasHealthcheck =
  runtimeStage !== undefined && instructionsOf(runtimeStage, "HEALTHCHECK").length === 1;

let helpCommands: Set<string> | undefined;

/** The commands `sharpsharp --help` lists (the built CLI: `npm run build` makes it, as `npm test` does). */
function cliCommands(): Set<string> {
  if (helpCommands !== undefined) return helpCommands;
  const cli = join(root, "dist/src/cli.js");
  if (!existsSync(cli)) throw new Error("dist/src/cli.js is missing: run `npm run build` first");
  const help = spawnSync(process.execPath, [join(root, "bin/sharpsharp.js"), "--help"], {
    encoding: "utf8",
    env: { PATH: process.env.PATH },
  });
  expect(help.status, help.stderr).toBe(0);
  helpCommands = new Set(
    [...help.stdout.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((match) => match[1] as string),
  );
  return helpCommands;
}

function sharpsharpServices(file: ComposeFile): [string, ComposeService][] {
  return Object.entries(file.services).filter(([, service]) => service.image === IMAGE);
}

function commandOf(service: ComposeService): string[] {
  const command = service.command ?? [];
  return typeof command === "string" ? command.split(/\s+/) : [...command];
}

/** What the container's process sees: the image's ENV, then the service's, interpolated from `.env`. */
function containerEnvironment(service: ComposeService, dotEnv: ReadonlyMap<string, string>) {
  const environment: Record<string, string> = Object.fromEntries(imageEnvironment);
  for (const [name, value] of environmentOf(service)) environment[name] = interpolate(value, dotEnv);
  return environment;
}

const looksSecret = (name: string) =>
  SECRET_ENV_NAMES.has(name) || /(SECRET|TOKEN|PASSWORD|API_KEY)$/.test(name);

describe.each(FILES)("%s", (fileName) => {
  const file = files.get(fileName) as ComposeFile;
  const text = texts.get(fileName) as string;

  it("validates against the Compose Specification schema", () => {
    expect(validateCompose(file)).toEqual([]);
  });

  it("runs commands of the CLI, from the image this repository builds", () => {
    const commands = cliCommands();
    const services = sharpsharpServices(file);
    expect(services.length).toBeGreaterThan(0);
    for (const [name, service] of services) {
      const [command] = commandOf(service);
      expect(commands, `${name}: ${command}`).toContain(command);
      expect(service.build, name).toEqual({ context: "../.." });
      expect(existsSync(join(composeDir, "../..", "Dockerfile")), name).toBe(true);
    }
  });

  it("sets only variables sharpsharp's config knows, which its config loader accepts with .env.example", () => {
    const known = new Set(Object.keys(envSchema.shape));
    for (const [name, service] of sharpsharpServices(file)) {
      for (const variable of environmentOf(service).keys())
        expect(known, `${name}: ${variable}`).toContain(variable);
      const env = containerEnvironment(service, example);
      expect(() => loadConfig({ env, cwd: root }), name).not.toThrow();
    }
  });

  it("takes every secret from .env, never from a literal", () => {
    for (const [name, service] of Object.entries(file.services)) {
      for (const [variable, value] of environmentOf(service)) {
        const secretInside = variable === "REDIS_URL" || variable === "DATABASE_URL";
        if (!looksSecret(variable) && !secretInside) continue;
        expect(value, `${name}: ${variable}`).toMatch(/\$\{[A-Z_]+(:?[-?][^}]*)?\}/);
        // Interpolated from a variable that .env.example lists with a placeholder, or empty (optional).
        for (const used of interpolatedNames(value)) {
          if (looksSecret(used)) expect(example.get(used), `${name}: ${used}`).toMatch(/^(change-me.*)?$/);
        }
      }
    }
    // Refused by Compose, with a message, when .env leaves out the ones a service cannot start without.
    if (fileName === "compose.yaml") {
      const withoutPassword = new Map(example);
      withoutPassword.delete("REDIS_PASSWORD");
      const [, ingress] = sharpsharpServices(file)[0] as [string, ComposeService];
      expect(() => containerEnvironment(ingress, withoutPassword)).toThrow(/set REDIS_PASSWORD in \.env/);
    }
    expect(text).not.toMatch(/change-me/);
  });

  it("checks every service's health, and starts each only once what it depends on is healthy", () => {
    for (const [name, service] of Object.entries(file.services)) {
      const own = service.healthcheck !== undefined && service.healthcheck.disable !== true;
      expect(own || (service.image === IMAGE && imageHasHealthcheck), `${name} has no healthcheck`).toBe(
        true,
      );
      const dependsOn = service.depends_on ?? {};
      expect(Array.isArray(dependsOn), `${name}: depends_on needs conditions`).toBe(false);
      for (const [dependency, { condition }] of Object.entries(dependsOn)) {
        expect(condition, `${name} → ${dependency}`).toBe("service_healthy");
        expect(file.services[dependency], `${name} → ${dependency}`).toBeDefined();
      }
    }
  });

  it("gives each sharpsharp container longer to stop than its drain (SHUTDOWN_GRACE_MS + 10 s)", () => {
    for (const [name, service] of sharpsharpServices(file)) {
      const config = loadConfig({ env: containerEnvironment(service, example), cwd: root });
      const seconds = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? "")?.[1] ?? 10);
      expect(seconds * 1000, name).toBeGreaterThan(config.shutdownGraceMs + 10_000);
    }
  });
});

it("the schema validation is live: a misspelled field or a wrong type is refused", () => {
  const broken = structuredClone(files.get("compose.yaml")) as {
    services: Record<string, Record<string, unknown>>;
  };
  (broken.services.redis as Record<string, unknown>).helthcheck = { test: ["CMD", "true"] };
  (broken.services.worker as { deploy: { replicas: unknown } }).deploy.replicas = [2];
  const errors = validateCompose(broken).map((error) => `${error.instancePath} ${error.message}`);
  expect(errors.some((error) => error.includes("/services/redis"))).toBe(true);
  expect(errors.some((error) => error.includes("/services/worker/deploy/replicas"))).toBe(true);
});

describe("compose.yaml: distributed mode on one host", () => {
  const file = files.get("compose.yaml") as ComposeFile;
  const services = file.services;
  const byCommand = (command: string) =>
    sharpsharpServices(file).filter(([, service]) => commandOf(service)[0] === command);

  it("runs Redis with AOF fsynced every second, no eviction, on a volume", () => {
    const redis = services.redis as ComposeService;
    const command = commandOf(redis).join(" ");
    expect(command).toMatch(/--appendonly yes\b/);
    expect(command).toMatch(/--appendfsync everysec\b/);
    expect(command).toMatch(/--maxmemory-policy noeviction\b/);
    expect(redis.volumes).toContain("redis-data:/data");
    expect(file.volumes).toHaveProperty("redis-data");
    // The same Redis the services are pointed at.
    for (const [name, service] of sharpsharpServices(file)) {
      expect(containerEnvironment(service, example).REDIS_URL, name).toMatch(/@redis:6379\//);
    }
  });

  it("runs PostgreSQL on a volume, and points every process's message log at it", () => {
    const postgres = services.postgres as ComposeService;
    expect(postgres.volumes).toContain("postgres-data:/var/lib/postgresql/data");
    const env = containerEnvironment(postgres, example);
    for (const [name, service] of sharpsharpServices(file)) {
      const url = new URL(containerEnvironment(service, example).DATABASE_URL ?? "");
      expect([url.hostname, url.username, url.password, url.pathname], name).toEqual([
        "postgres",
        env.POSTGRES_USER,
        env.POSTGRES_PASSWORD,
        `/${env.POSTGRES_DB}`,
      ]);
    }
  });

  it("puts two ingresses behind the proxy: only the proxy publishes the webhook port", () => {
    const ingresses = byCommand("ingress").map(([name]) => name);
    expect(ingresses).toEqual(["ingress-1", "ingress-2"]);
    for (const name of ingresses) expect(services[name]?.ports, name).toBeUndefined();
    const proxy = services.proxy as ComposeService;
    expect(proxy.image).toMatch(/^haproxy:\d/);
    expect(proxy.volumes).toContain("./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro");
    expect(Object.keys(proxy.depends_on ?? {}).sort()).toEqual(ingresses);
    const bind = /^\s*bind\s+:(\d+)\s*$/m.exec(haproxyConfig)?.[1];
    expect(proxy.ports).toEqual([`\${PROXY_PORT:-8080}:${bind}`]);
  });

  it("haproxy.cfg sends to the ingress services on their PORT, checked on /readyz", () => {
    const servers = [...haproxyConfig.matchAll(/^\s*server\s+(\S+)\s+([^:\s]+):(\d+)\s+(.*)$/gm)];
    const ingresses = byCommand("ingress");
    expect(servers.map((server) => server[2])).toEqual(ingresses.map(([name]) => name));
    for (const [name, service] of ingresses) {
      const server = servers.find((entry) => entry[2] === name);
      const port = loadConfig({ env: containerEnvironment(service, example), cwd: root }).server.port;
      expect(Number(server?.[3]), name).toBe(port);
      expect(server?.[4], name).toMatch(/\bcheck\b/);
    }
    expect(haproxyConfig).toMatch(/^\s*option httpchk GET \/readyz\s*$/m);
    expect(haproxyConfig).toMatch(/^\s*http-check expect status 200\s*$/m);
    // The proxy is healthy while an ingress is: its healthcheck asks the monitor URI that says so.
    const monitor = /^\s*monitor-uri\s+(\S+)/m.exec(haproxyConfig)?.[1];
    expect(haproxyConfig).toMatch(/^\s*monitor fail if \{ nbsrv\(ingresses\) lt 1 \}\s*$/m);
    expect([services.proxy?.healthcheck?.test ?? []].flat().join(" ")).toContain(`GET ${monitor} `);
    // The console's simulator posts through it.
    const [[, console]] = byCommand("console") as [[string, ComposeService]];
    expect(containerEnvironment(console, example).CONSOLE_INGRESS_URL).toBe(
      `http://proxy:${/bind\s+:(\d+)/.exec(haproxyConfig)?.[1]}`,
    );
  });

  it("haproxy -c accepts haproxy.cfg (Debian's haproxy; in CI it must be installed)", (context) => {
    const check = spawnSync("haproxy", ["-c", "-f", join(composeDir, "haproxy.cfg")], { encoding: "utf8" });
    if (check.error !== undefined) {
      const reason = `haproxy is not installed (${check.error.message}): apt-get install haproxy`;
      if (process.env.CI !== undefined) throw new Error(`CI is set but ${reason}: see .ci/run`);
      context.skip(reason);
    }
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(check.stdout + check.stderr).toContain("Configuration file is valid");
    // The only warnings allowed: the ingress names resolve on the Compose network, not here.
    const warnings = (check.stdout + check.stderr).split("\n").filter((line) => line.includes("WARNING"));
    for (const warning of warnings) expect(warning).toMatch(/could not resolve address 'ingress-\d'/);
  });

  it("runs WORKER_REPLICAS workers (2 by default), sharing one data volume", () => {
    const [[name, worker], ...others] = byCommand("worker") as [[string, ComposeService]];
    expect(others).toEqual([]);
    expect(worker.deploy?.replicas, name).toBe(`\${WORKER_REPLICAS:-2}`);
    expect(interpolate(String(worker.deploy?.replicas), new Map())).toBe("2");
    expect(interpolate(String(worker.deploy?.replicas), example)).toBe(example.get("WORKER_REPLICAS"));
    expect(worker.ports, name).toBeUndefined();
    expect(worker.volumes).toContain("worker-data:/var/lib/sharpsharp");
  });

  it("publishes the console's admin port on this host's loopback only, with ADMIN_TOKEN required", () => {
    const [[, console]] = byCommand("console") as [[string, ComposeService]];
    const admin = loadConfig({ env: containerEnvironment(console, example), cwd: root }).admin;
    expect(console.ports).toEqual([`127.0.0.1:\${CONSOLE_PORT:-9464}:${admin.port}`]);
    for (const [name, service] of sharpsharpServices(file)) {
      expect(environmentOf(service).get("ADMIN_TOKEN"), name).toMatch(/^\$\{ADMIN_TOKEN:\?/);
      if (commandOf(service)[0] !== "console") expect(service.ports, name).toBeUndefined();
    }
  });
});

describe("compose.embedded.yaml: one container, one volume", () => {
  const file = files.get("compose.embedded.yaml") as ComposeFile;

  it("runs `start` embedded (no Redis, no PostgreSQL) with the data directory on its one volume", () => {
    const entries = Object.entries(file.services);
    expect(entries).toHaveLength(1);
    const [[name, service]] = entries as [[string, ComposeService]];
    expect(commandOf(service), name).toEqual(["start"]);
    const env = containerEnvironment(service, example);
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.DATABASE_URL).toBeUndefined();
    expect(Object.keys(file.volumes ?? {})).toEqual(["data"]);
    const dataDir = loadConfig({ env, cwd: root }).dataDir;
    expect(service.volumes).toEqual([`data:${dataDir}`]);
    expect(service.deploy?.replicas).toBeUndefined();
  });
});

describe(".env.example", () => {
  it("lists exactly the variables the compose files read, secrets as placeholders", () => {
    const used = new Set(FILES.flatMap((file) => [...interpolatedNames(texts.get(file) as string)]));
    expect([...example.keys()].sort()).toEqual([...used].sort());
    for (const [name, value] of example) {
      if (looksSecret(name)) expect(value, name).toMatch(/^(change-me.*)?$/);
    }
  });

  it("is the only env file in deploy/compose that git keeps: .env and tenants.env are ignored", () => {
    for (const name of [".env", "tenants.env"]) {
      const ignored = spawnSync("git", ["check-ignore", "-q", join("deploy/compose", name)], { cwd: root });
      expect(ignored.status, name).toBe(0);
    }
  });
});
