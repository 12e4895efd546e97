import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { type EmbeddedProcess, spawnEmbedded } from "../support/embedded-process.js";
import { type DockerStage, instructionsOf, parseDockerfile } from "./dockerfile-model.js";
import { parseDockerIgnore } from "./dockerignore.js";
import { type KubeObject, readManifest } from "./kustomize.js";

// The Dockerfile read statically (dockerfile-ast), with its .dockerignore, and held to what
// docs/operations.md#container-image-and-docker-compose promises; its HEALTHCHECK run against a real
// sharpsharp process. test/deploy/image-build.test.ts builds it where a Docker daemon answers.
const root = fileURLToPath(new URL("../../", import.meta.url));
const dockerfile = parseDockerfile(readFileSync(join(root, "Dockerfile"), "utf8"));
const dockerignore = parseDockerIgnore(readFileSync(join(root, ".dockerignore"), "utf8"));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  files: string[];
  bin: Record<string, string>;
};
const runtime = dockerfile.stages.at(-1) as DockerStage;
const stageNamed = (name: string | null | undefined) =>
  dockerfile.stages.find((stage) => stage.name === name);

/** The runtime stage's ENV, as the container starts with it. */
const imageEnv: Record<string, string> = Object.fromEntries(
  instructionsOf(runtime, "ENV").flatMap((env) => env.args.map((pair) => pair.split("=", 2))),
);
/** The last WORKDIR of a stage: where its relative COPY destinations land. */
const workdirOf = (stage: DockerStage) => instructionsOf(stage, "WORKDIR").at(-1)?.args[0] ?? "/";
const absolute = (stage: DockerStage, path: string) =>
  path.startsWith("/") ? path : join(workdirOf(stage), path).replace(/\/$/, "");

/** `git ls-files` under a path: what a clone has there. */
function trackedFiles(path: string): string[] {
  const listed = spawnSync("git", ["ls-files", "-z", "--", path], { cwd: root, encoding: "utf8" });
  expect(listed.status, listed.stderr).toBe(0);
  return listed.stdout.split("\0").filter(Boolean);
}

describe("the Dockerfile", () => {
  it("has a build stage and a runtime stage, both FROM the NODE_IMAGE build argument (an official node:20 bookworm slim by default)", () => {
    expect(dockerfile.stages.map((stage) => stage.name)).toEqual(["build", "runtime"]);
    for (const stage of dockerfile.stages) expect(stage.base, stage.name).toBe(`\${NODE_IMAGE}`);
    expect(dockerfile.globalArgs.get("NODE_IMAGE")).toMatch(/^node:20(\.\d+){0,2}-bookworm-slim$/);
  });

  it("builds in the build stage: the compiler for better-sqlite3, npm ci, npm run build, then devDependencies dropped", () => {
    const build = stageNamed("build") as DockerStage;
    const commands = instructionsOf(build, "RUN").map((instruction) => instruction.args.join(" "));
    const script = commands.join(" && ");
    for (const tool of ["python3", "make", "g\\+\\+"])
      expect(script).toMatch(new RegExp(`apt-get install [^&]*\\s${tool}(?=\\s|$)`));
    const ci = script.indexOf("npm ci");
    const buildAt = script.indexOf("npm run build");
    const prune = script.search(/npm prune --omit=dev\b/);
    expect(ci).toBeGreaterThan(-1);
    expect(buildAt).toBeGreaterThan(ci);
    expect(prune).toBeGreaterThan(buildAt);
    // Nothing installs after the prune.
    expect(script.slice(prune)).not.toMatch(/npm (ci|install|i)\b/);
    // With the package's "prepare" skipped (its sources are copied after), the native modules are built.
    if (/npm ci [^&]*--ignore-scripts/.test(script)) expect(script).toMatch(/npm rebuild\b/);
  });

  it("runs as a non-root user, the uid deploy/kubernetes runs the pods as", () => {
    const users = instructionsOf(runtime, "USER");
    expect(users).toHaveLength(1);
    const [uid, gid] = (users[0]?.args[0] ?? "").split(":");
    expect(uid).toMatch(/^\d+$/); // numeric: Kubernetes can check runAsNonRoot against it
    expect(Number(uid)).toBeGreaterThan(0);
    const [deployment] = readManifest(join(root, "deploy/kubernetes/base/ingress-deployment.yaml")) as [
      KubeObject,
    ];
    const pod = (deployment.spec as { template: { spec: { securityContext: Record<string, number> } } })
      .template.spec.securityContext;
    expect([Number(uid), Number(gid)]).toEqual([pod.runAsUser, pod.runAsGroup]);
    // The user is set after every RUN: nothing the image does at build time depends on it, and the data
    // directory is made its own.
    const lastRun = instructionsOf(runtime, "RUN").at(-1);
    expect((users[0]?.line ?? 0) > (lastRun?.line ?? 0)).toBe(true);
    expect(lastRun?.args.join(" ")).toContain(`chown ${uid}:${gid} ${imageEnv.SHARPSHARP_DATA_DIR}`);
  });

  it("declares the data directory (SHARPSHARP_DATA_DIR) a volume, the same path deploy/kubernetes mounts", () => {
    const volumes = instructionsOf(runtime, "VOLUME").flatMap((volume) => volume.exec ?? volume.args);
    const dataDir = loadConfig({ env: imageEnv, cwd: root, requireTenants: false }).dataDir;
    expect(volumes).toEqual([dataDir]);
    const kustomization = readFileSync(join(root, "deploy/kubernetes/base/kustomization.yaml"), "utf8");
    expect(kustomization).toContain(`SHARPSHARP_DATA_DIR=${dataDir}`);
  });

  it("listens on every interface, keeps the admin listener on loopback unless a token guards it", () => {
    expect(imageEnv.HOST).toBe("0.0.0.0");
    const config = loadConfig({ env: imageEnv, cwd: root, requireTenants: false });
    expect(config.admin.host).toBe("127.0.0.1");
    // Opening it wider without ADMIN_TOKEN is refused at start, so the image cannot expose it unguarded.
    expect(() => loadConfig({ env: { ...imageEnv, ADMIN_HOST: "0.0.0.0" }, cwd: root })).toThrow(
      /ADMIN_TOKEN/,
    );
    const exposed = instructionsOf(runtime, "EXPOSE").flatMap((expose) => expose.args.map(Number));
    expect(exposed).toEqual([config.server.port, config.admin.port]);
  });

  it("has the CLI as its entrypoint (node as PID 1, which handles SIGTERM), start as its default command", () => {
    const [entrypoint] = instructionsOf(runtime, "ENTRYPOINT");
    expect(entrypoint?.exec).toEqual(["node", `${workdirOf(runtime)}/${pkg.bin.sharpsharp}`]);
    expect(instructionsOf(runtime, "CMD")[0]?.exec).toEqual(["start"]);
    expect(instructionsOf(runtime, "STOPSIGNAL")[0]?.args).toEqual(["SIGTERM"]);
    const cli = readFileSync(join(root, "src/cli.ts"), "utf8");
    expect(cli).toContain('process.on("SIGTERM"');
  });

  it("copies into the runtime stage what package.json publishes, production node_modules, and no build tool", () => {
    const copies = instructionsOf(runtime, "COPY").map((copy) => {
      const sources = copy.args.slice(0, -1);
      const target = copy.args.at(-1) ?? "";
      const intoFolder = target.endsWith("/") || sources.length > 1;
      return {
        from: copy.flags.get("from") ?? undefined,
        // Where each source lands: inside a destination folder (`./`), or as the destination itself.
        landed: sources.map((source) =>
          absolute(runtime, intoFolder ? join(target, basename(source)) : target),
        ),
      };
    });
    const landed = copies
      .flatMap((copy) => copy.landed)
      .map((path) => path.replace(`${workdirOf(runtime)}/`, ""));
    for (const published of [...pkg.files, "package.json", "node_modules"]) {
      expect(
        landed.some((path) => path === published || path.startsWith(`${published}/`)),
        published,
      ).toBe(true);
    }
    // node_modules comes from the stage that pruned the devDependencies; the runtime installs nothing.
    const modules = copies.find((copy) => copy.landed.some((path) => path.endsWith("/node_modules")));
    expect(modules?.from).toBe("build");
    for (const instruction of instructionsOf(runtime, "RUN")) {
      expect(instruction.args.join(" ")).not.toMatch(/\b(npm|apt-get|yarn|pnpm)\b/);
    }
  });

  it("copies only sources that exist in the repository and that .dockerignore lets into the build context", () => {
    for (const stage of dockerfile.stages) {
      for (const copy of instructionsOf(stage, "COPY").filter((c) => !c.flags.has("from"))) {
        for (const source of copy.args.slice(0, -1)) {
          expect(existsSync(join(root, source)), `${source} (line ${copy.line})`).toBe(true);
          expect(dockerignore.includes(source), `${source} is ignored (line ${copy.line})`).toBe(true);
          if (!statSync(join(root, source)).isDirectory()) continue;
          const left = trackedFiles(source).filter((file) => !dockerignore.includes(file));
          // Only tests stay out of the context.
          expect(
            left.filter((file) => !file.endsWith(".test.ts")),
            source,
          ).toEqual([]);
        }
      }
    }
    // What must never reach the daemon.
    for (const path of [
      "node_modules/ajv/package.json",
      ".env",
      "deploy/compose/.env",
      "dist/src/cli.js",
      "test/deploy/compose.test.ts",
      ".git/HEAD",
      "data/sharpsharp.db",
    ])
      expect(dockerignore.includes(path), path).toBe(false);
  });
});

describe("the image's HEALTHCHECK, run against a real sharpsharp process", () => {
  const [healthcheck] = instructionsOf(runtime, "HEALTHCHECK");
  const ADMIN_TOKEN = "healthcheck-test-token-0123456789";
  let gateway: EmbeddedProcess;
  let dataDir: string;
  let port: number;
  let adminPort: number;
  let unused: number;

  async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
  }

  /** The HEALTHCHECK's command, run as Docker would in the container, with that environment: its exit code. */
  function probe(env: Record<string, string>): number | null {
    const [command, ...args] = healthcheck?.exec ?? [];
    expect(command).toBe("node");
    const result = spawnSync(process.execPath, args, {
      env: { PATH: process.env.PATH, ...env },
      timeout: 15_000,
    });
    return result.status;
  }

  beforeAll(async () => {
    [port, adminPort, unused] = [await freePort(), await freePort(), await freePort()];
    dataDir = mkdtempSync(join(tmpdir(), "sharpsharp-healthcheck-"));
    gateway = spawnEmbedded({
      dataDir,
      graphUrl: "http://127.0.0.1:9",
      env: { PORT: String(port), ADMIN_PORT: String(adminPort), ADMIN_TOKEN },
    });
    await gateway.ready(30_000);
  }, 40_000);

  afterAll(async () => {
    gateway?.child.kill("SIGTERM");
    await gateway?.exited();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is node's fetch in the exec form, with an interval, a timeout and a start period", () => {
    expect(healthcheck?.exec?.slice(0, 2)).toEqual(["node", "-e"]);
    for (const flag of ["interval", "timeout", "start-period", "retries"])
      expect(healthcheck?.flags.get(flag), flag).toMatch(/^\d+s?$/);
  });

  it("passes on the public /healthz (start, ingress, worker)", () => {
    expect(probe({ PORT: String(port) })).toBe(0);
  });

  it("without a public listener (console), asks the admin /healthz with ADMIN_TOKEN, and fails without it", () => {
    expect(probe({ PORT: String(unused), ADMIN_PORT: String(adminPort), ADMIN_TOKEN })).toBe(0);
    expect(
      probe({ PORT: String(unused), ADMIN_PORT: String(adminPort), ADMIN_TOKEN: "wrong-token-0123456789" }),
    ).toBe(1);
    expect(probe({ PORT: String(unused), ADMIN_PORT: String(adminPort) })).toBe(1);
  });

  it("fails when nothing listens", () => {
    expect(probe({ PORT: String(unused), ADMIN_PORT: String(unused) })).toBe(1);
  });
});
