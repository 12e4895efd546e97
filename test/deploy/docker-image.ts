import { type SpawnSyncOptions, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The system trust store of Debian and Ubuntu hosts. */
const HOST_CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt";

/** A command's outcome; throws (with its output) when it could not run or failed, unless `allowFailure`. */
export function run(
  command: string,
  args: readonly string[],
  options: SpawnSyncOptions & { readonly allowFailure?: boolean } = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, [...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  const outcome = { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
  if (result.error !== undefined && options.allowFailure !== true) throw result.error;
  if (result.status !== 0 && options.allowFailure !== true) {
    throw new Error(
      `${command} ${args.join(" ")} exited ${result.status}:\n${outcome.stderr || outcome.stdout}`,
    );
  }
  return outcome;
}

/** Whether a Docker daemon answers `docker info`, or why not (the reason a test is skipped with). */
export type DockerProbe =
  | { readonly available: true; readonly serverVersion: string }
  | { readonly available: false; readonly reason: string };

export function probeDocker(): DockerProbe {
  const info = run("docker", ["info", "--format", "{{.ServerVersion}}"], {
    allowFailure: true,
    timeout: 20_000,
  });
  if (info.status !== 0) {
    const why = (info.stderr || info.stdout || "docker is not installed").trim().split("\n").at(-1);
    return { available: false, reason: `no Docker daemon answers \`docker info\` (${why})` };
  }
  return { available: true, serverVersion: info.stdout.trim() };
}

/** Why a base image cannot be made here (debootstrap missing, no headers beside this Node), or undefined. */
export function baseImageObstacle(): string | undefined {
  if (run("debootstrap", ["--version"], { allowFailure: true }).status !== 0)
    return "debootstrap is not installed (apt-get install debootstrap)";
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  if (!existsSync(join(prefix, "include/node/node_version.h")))
    return `this Node has no headers in ${prefix}/include/node (better-sqlite3 would be compiled against them)`;
  if (!existsSync(join(prefix, "lib/node_modules/npm/bin/npm-cli.js")))
    return `no npm in ${prefix}/lib/node_modules`;
  return undefined;
}

/**
 * A Debian bookworm image with this machine's Node and npm, made without pulling: `debootstrap --variant=minbase`
 * into a temporary folder, this Node's binary, headers and npm copied in, `docker import`. Made once and kept
 * under `tag` (named for the Node version). It stands in for node:20-bookworm-slim: the same Debian release,
 * Node 20, npm, and no compiler. Its one addition, `npm_config_nodedir`, lets node-gyp compile
 * better-sqlite3 against the copied headers where neither a prebuilt binary nor the headers can be downloaded.
 */
export function ensureBaseImage(tag: string, mirror: string, log: (line: string) => void): void {
  if (run("docker", ["image", "inspect", tag], { allowFailure: true }).status === 0) {
    log(`base image ${tag} exists`);
    return;
  }
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  const rootfs = mkdtempSync(join(tmpdir(), "sharpsharp-rootfs-"));
  // The folder becomes the image's `/`: mkdtemp's 0700 would keep every user but root out of it.
  chmodSync(rootfs, 0o755);
  try {
    const started = Date.now();
    run("debootstrap", ["--variant=minbase", "bookworm", rootfs, mirror], { timeout: 20 * 60_000 });
    log(`debootstrap: ${Math.round((Date.now() - started) / 1000)} s`);
    const local = join(rootfs, "usr/local");
    mkdirSync(join(local, "bin"), { recursive: true });
    cpSync(realpathSync(process.execPath), join(local, "bin/node"));
    cpSync(join(prefix, "include/node"), join(local, "include/node"), { recursive: true });
    cpSync(join(prefix, "lib/node_modules/npm"), join(local, "lib/node_modules/npm"), { recursive: true });
    symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", join(local, "bin/npm"));
    symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", join(local, "bin/npx"));
    // This machine's trust store, for npm's TLS: it may trust a proxy that intercepts TLS, as some build
    // machines do (the official images trust only the public authorities, which such a proxy is not).
    const changes = ["ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"];
    changes.push("ENV npm_config_nodedir=/usr/local");
    if (existsSync(HOST_CA_BUNDLE)) {
      mkdirSync(join(rootfs, dirname(HOST_CA_BUNDLE)), { recursive: true });
      cpSync(HOST_CA_BUNDLE, join(rootfs, HOST_CA_BUNDLE));
      changes.push(`ENV NODE_EXTRA_CA_CERTS=${HOST_CA_BUNDLE}`, `ENV npm_config_cafile=${HOST_CA_BUNDLE}`);
    }
    const archives = join(rootfs, "var/cache/apt/archives");
    for (const deb of readdirSync(archives).filter((name) => name.endsWith(".deb")))
      rmSync(join(archives, deb));
    const changeFlags = changes.flatMap((change) => ["--change", change]);
    const script = 'rootfs="$1"; tag="$2"; shift 2; tar -C "$rootfs" -c . | docker import "$@" - "$tag"';
    run("bash", ["-c", script, "import", rootfs, tag, ...changeFlags], { timeout: 10 * 60_000 });
    log(`base image ${tag} imported: ${Math.round((Date.now() - started) / 1000)} s in all`);
  } finally {
    rmSync(rootfs, { recursive: true, force: true });
  }
}
