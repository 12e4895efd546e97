import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { baseImageObstacle, ensureBaseImage, probeDocker, run } from "./docker-image.js";

// The Dockerfile built for real, where a Docker daemon answers: on a base image made here without pulling
// (debootstrap + this machine's Node 20, see docker-image.ts), then the image's CLI, its demo, its
// HEALTHCHECK, its data volume and its SIGTERM handling, each run in a container. Without a daemon every
// test here is skipped with the reason (CI does not start one).
const root = fileURLToPath(new URL("../../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const BASE_TAG = `sharpsharp-test-base:bookworm-node${process.versions.node}`;
const IMAGE_TAG = `sharpsharp-test:${randomUUID().slice(0, 8)}`;
const VOLUME = `sharpsharp-test-data-${randomUUID().slice(0, 8)}`;
const CONTAINER = `sharpsharp-test-${randomUUID().slice(0, 8)}`;
const MINUTES = 60_000;

const docker = probeDocker();
const obstacle = docker.available ? baseImageObstacle() : docker.reason;
let built: { readonly baseMs: number; readonly buildMs: number } | undefined;
let buildError: unknown;

function requireImage(context: TestContext): void {
  if (obstacle !== undefined) context.skip(obstacle);
  if (buildError !== undefined) throw buildError;
}

// The daemon of a machine like this one may have no bridge network: the build and the containers use the
// host's (the build's apt-get and npm need the network; the demo is then reached on the host's loopback).
const docker_ = (args: readonly string[], timeout = 2 * MINUTES, allowFailure = false) =>
  run("docker", args, { timeout, allowFailure, env: { ...process.env, DOCKER_BUILDKIT: "0" } });

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(() => {
  if (obstacle !== undefined) return;
  try {
    const started = Date.now();
    ensureBaseImage(BASE_TAG, "http://deb.debian.org/debian", (line) => process.stdout.write(`${line}\n`));
    const baseMs = Date.now() - started;
    const building = Date.now();
    docker_(
      ["build", "--network", "host", "--build-arg", `NODE_IMAGE=${BASE_TAG}`, "-t", IMAGE_TAG, root],
      40 * MINUTES,
    );
    built = { baseMs, buildMs: Date.now() - building };
    process.stdout.write(
      `image ${IMAGE_TAG} built in ${Math.round(built.buildMs / 1000)} s (base image: ${Math.round(baseMs / 1000)} s)\n`,
    );
  } catch (error) {
    buildError = error;
  }
}, 60 * MINUTES);

afterAll(() => {
  if (obstacle !== undefined) return;
  docker_(["rm", "-f", CONTAINER], MINUTES, true);
  docker_(["volume", "rm", "-f", VOLUME], MINUTES, true);
  docker_(["rmi", "-f", IMAGE_TAG], 5 * MINUTES, true);
}, 10 * MINUTES);

describe("the image, built from the Dockerfile", () => {
  it(
    "builds on a local Debian bookworm + Node 20 base, given as the NODE_IMAGE build argument",
    (context) => {
      requireImage(context);
      expect(built?.buildMs).toBeGreaterThan(0);
      const [config] = JSON.parse(docker_(["image", "inspect", IMAGE_TAG]).stdout) as {
        Config: {
          User: string;
          Entrypoint: string[];
          Cmd: string[];
          Volumes: Record<string, object>;
          Healthcheck?: { Test: string[] };
          Env: string[];
        };
      }[];
      expect(config?.Config.User).toBe("1000:1000");
      expect(config?.Config.Entrypoint).toEqual(["node", "/app/bin/sharpsharp.js"]);
      expect(config?.Config.Cmd).toEqual(["start"]);
      expect(Object.keys(config?.Config.Volumes ?? {})).toEqual(["/var/lib/sharpsharp"]);
      expect(config?.Config.Healthcheck?.Test.slice(0, 2)).toEqual(["CMD", "node"]);
      expect(config?.Config.Env).toContain("SHARPSHARP_DATA_DIR=/var/lib/sharpsharp");
    },
    5 * MINUTES,
  );

  it(
    "runs the CLI as its entrypoint: --help, version",
    (context) => {
      requireImage(context);
      const help = docker_(["run", "--rm", "--network", "none", IMAGE_TAG, "--help"]);
      for (const command of ["start", "ingress", "worker", "console", "admin", "router"])
        expect(help.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, "m"));
      expect(docker_(["run", "--rm", "--network", "none", IMAGE_TAG, "version"]).stdout.trim()).toBe(
        pkg.version,
      );
    },
    5 * MINUTES,
  );

  it(
    "holds the production dependencies and no devDependency, no compiler, runs as uid 1000",
    (context) => {
      requireImage(context);
      const script = `const fs = require("node:fs");
      const has = (name) => fs.existsSync("/app/node_modules/" + name + "/package.json");
      const names = (list) => JSON.parse(list).filter(has);
      console.log(JSON.stringify({ uid: process.getuid(), dev: names(process.env.DEV), prod: names(process.env.PROD),
        compiler: ["/usr/bin/g++", "/usr/bin/make", "/usr/bin/python3"].filter((p) => fs.existsSync(p)),
        app: fs.readdirSync("/app").sort(), dist: fs.readdirSync("/app/dist").sort() }));`;
      const inside = JSON.parse(
        docker_([
          "run",
          "--rm",
          "--network",
          "none",
          "-e",
          `DEV=${JSON.stringify(Object.keys(pkg.devDependencies))}`,
          "-e",
          `PROD=${JSON.stringify(Object.keys(pkg.dependencies))}`,
          "--entrypoint",
          "node",
          IMAGE_TAG,
          "-e",
          script,
        ]).stdout,
      ) as { uid: number; dev: string[]; prod: string[]; compiler: string[]; app: string[]; dist: string[] };
      expect(inside.uid).toBe(1000);
      expect(inside.dev).toEqual([]);
      expect(inside.prod).toEqual(Object.keys(pkg.dependencies));
      expect(inside.compiler).toEqual([]);
      expect(inside.app).toEqual(["bin", "data", "dist", "node_modules", "package.json"]);
      expect(inside.dist).toEqual(["console", "src"]);
    },
    5 * MINUTES,
  );

  it(
    "runs the demo: /healthz answers, the HEALTHCHECK turns healthy, the data volume is written, SIGTERM stops it with code 0",
    async (context) => {
      requireImage(context);
      const port = await freePort();
      const adminPort = await freePort();
      docker_([
        "run",
        "-d",
        "--name",
        CONTAINER,
        "--network",
        "host",
        "-e",
        `PORT=${port}`,
        "-e",
        `ADMIN_PORT=${adminPort}`,
        "-v",
        `${VOLUME}:/var/lib/sharpsharp`,
        IMAGE_TAG,
        "start",
      ]);
      const healthz = await waitFor("the demo's /healthz", 2 * MINUTES, async () => {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        return response.ok ? response.status : undefined;
      });
      expect(healthz).toBe(200);
      // The HEALTHCHECK runs every 15 s after the container starts.
      const health = await waitFor("the container to turn healthy", 2 * MINUTES, async () => {
        const status = docker_(["inspect", "-f", "{{.State.Health.Status}}", CONTAINER]).stdout.trim();
        if (status === "unhealthy") throw new Error("unhealthy");
        return status === "healthy" ? status : undefined;
      });
      expect(health).toBe("healthy");

      const stopping = Date.now();
      docker_(["stop", "-t", "60", CONTAINER], 2 * MINUTES);
      const stopMs = Date.now() - stopping;
      const exitCode = docker_(["inspect", "-f", "{{.State.ExitCode}}", CONTAINER]).stdout.trim();
      process.stdout.write(`docker stop: ${stopMs} ms, exit code ${exitCode}\n`);
      // Node as PID 1 took SIGTERM itself: a clean exit, long before docker stop's SIGKILL.
      expect(exitCode).toBe("0");
      expect(stopMs).toBeLessThan(30_000);

      const files = docker_([
        "run",
        "--rm",
        "--network",
        "none",
        "-v",
        `${VOLUME}:/var/lib/sharpsharp`,
        "--entrypoint",
        "node",
        IMAGE_TAG,
        "-e",
        'const fs = require("node:fs"); const s = fs.statSync("/var/lib/sharpsharp"); console.log(JSON.stringify({ files: fs.readdirSync("/var/lib/sharpsharp"), uid: s.uid, mode: (s.mode & 0o777).toString(8) }))',
      ]).stdout;
      const data = JSON.parse(files) as { files: string[]; uid: number; mode: string };
      expect(data.files).toContain("sharpsharp.db");
      expect(data.uid).toBe(1000);
      expect(data.mode).toBe("700");
    },
    5 * MINUTES,
  );
});
