import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { AppConfig, RedisNodeAddress, RedisServerConfig, RedisTlsConfig } from "./app-config.js";
import type { ParsedEnv } from "./env-schema.js";

const TOPOLOGY_NAMES = ["REDIS_URL", "REDIS_SENTINELS", "REDIS_CLUSTER_NODES"] as const;

function addresses(list: string, defaultPort: number): RedisNodeAddress[] {
  return list.split(",").map((raw) => {
    const entry = raw.trim();
    const match = /^(\[([^\]]+)\]|[^:]+)(?::(\d+))?$/.exec(entry);
    const host = match?.[2] ?? match?.[1] ?? entry;
    return { host, port: match?.[3] === undefined ? defaultPort : Number(match[3]) };
  });
}

/** A PEM file's text, read now (once, at start); a problem names the variable and why. */
function readPem(name: string, path: string | undefined, cwd: string, problems: string[]) {
  if (path === undefined) return undefined;
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  try {
    const text = readFileSync(absolute, "utf8");
    if (!text.includes("-----BEGIN ")) {
      problems.push(`${name}: ${absolute} is not a PEM file (no "-----BEGIN" line)`);
      return undefined;
    }
    return text;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? "error"})`;
    problems.push(`${name}: the file ${absolute} ${why}`);
    return undefined;
  }
}

function tlsFrom(env: ParsedEnv, cwd: string, problems: string[]): RedisTlsConfig {
  const ca = readPem("REDIS_TLS_CA_FILE", env.REDIS_TLS_CA_FILE, cwd, problems);
  const cert = readPem("REDIS_TLS_CERT_FILE", env.REDIS_TLS_CERT_FILE, cwd, problems);
  const key = readPem("REDIS_TLS_KEY_FILE", env.REDIS_TLS_KEY_FILE, cwd, problems);
  if ((env.REDIS_TLS_CERT_FILE === undefined) !== (env.REDIS_TLS_KEY_FILE === undefined)) {
    problems.push(
      "REDIS_TLS_CERT_FILE and REDIS_TLS_KEY_FILE: a client certificate needs its key, set both or neither",
    );
  }
  return {
    ...(ca === undefined ? {} : { ca }),
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
  };
}

const TLS_FILE_NAMES = ["REDIS_TLS_CA_FILE", "REDIS_TLS_CERT_FILE", "REDIS_TLS_KEY_FILE"] as const;

/**
 * Where Redis is and how to reach it, from REDIS_URL, REDIS_SENTINELS or
 * REDIS_CLUSTER_NODES (one of them; none: embedded mode), with TLS files read
 * once here. Problems are pushed onto `problems`, never thrown.
 */
export function redisConfigFrom(env: ParsedEnv, cwd: string, problems: string[]): AppConfig["redis"] {
  const given = TOPOLOGY_NAMES.filter((name) => env[name] !== undefined);
  if (given.length > 1) {
    problems.push(`${given.join(" and ")}: set only one (a single primary, Sentinel, or a Cluster)`);
  }
  const server = serverFrom(env, cwd, problems);
  const cluster = server?.kind === "cluster";
  if (cluster && env.REDIS_KEY_HASH_TAG === "off") {
    problems.push(
      "REDIS_KEY_HASH_TAG: cannot be off with REDIS_CLUSTER_NODES; sharpsharp's scripts need all keys in one slot",
    );
  }
  const tagged = cluster || env.REDIS_KEY_HASH_TAG === "on";
  return {
    server,
    prefix: env.REDIS_PREFIX,
    keyPrefix: tagged ? `{${env.REDIS_PREFIX}}` : env.REDIS_PREFIX,
    allowEviction: env.REDIS_ALLOW_EVICTION === "on",
  };
}

function serverFrom(env: ParsedEnv, cwd: string, problems: string[]): RedisServerConfig | undefined {
  const tlsFilesGiven = TLS_FILE_NAMES.filter((name) => env[name] !== undefined);
  if (env.REDIS_URL !== undefined) {
    const rediss = env.REDIS_URL.startsWith("rediss://");
    for (const name of ["REDIS_USERNAME", "REDIS_PASSWORD", "REDIS_TLS"] as const) {
      if (env[name] !== undefined) {
        problems.push(
          `${name}: not used with REDIS_URL; put the login in the URL (redis://user:password@host:6379) and use rediss:// for TLS`,
        );
      }
    }
    if (!rediss && tlsFilesGiven.length > 0) {
      problems.push(`${tlsFilesGiven.join(", ")}: REDIS_URL is redis:// (no TLS); use rediss:// for TLS`);
    }
    return { kind: "single", url: env.REDIS_URL, tls: rediss ? tlsFrom(env, cwd, problems) : undefined };
  }
  const tlsOn = env.REDIS_TLS === "on";
  if (env.REDIS_SENTINELS === undefined && env.REDIS_CLUSTER_NODES === undefined) {
    const stray = [
      ...(env.REDIS_SENTINEL_MASTER === undefined ? [] : ["REDIS_SENTINEL_MASTER"]),
      ...(env.REDIS_TLS === undefined ? [] : ["REDIS_TLS"]),
      ...tlsFilesGiven,
    ];
    if (stray.length > 0) {
      problems.push(`${stray.join(", ")}: set without REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES`);
    }
    return undefined;
  }
  if (!tlsOn && tlsFilesGiven.length > 0) {
    problems.push(`${tlsFilesGiven.join(", ")}: set REDIS_TLS=on too (the files are only read for TLS)`);
  }
  const credentials = {
    username: env.REDIS_USERNAME,
    password: env.REDIS_PASSWORD,
    tls: tlsOn ? tlsFrom(env, cwd, problems) : undefined,
  };
  if (env.REDIS_SENTINELS !== undefined) {
    if (env.REDIS_SENTINEL_MASTER === undefined) {
      problems.push(
        "REDIS_SENTINEL_MASTER: required with REDIS_SENTINELS (the name in the sentinels' `sentinel monitor <name> …`)",
      );
    }
    return {
      kind: "sentinel",
      sentinels: addresses(env.REDIS_SENTINELS, 26379),
      masterName: env.REDIS_SENTINEL_MASTER ?? "",
      sentinelUsername: env.REDIS_SENTINEL_USERNAME,
      sentinelPassword: env.REDIS_SENTINEL_PASSWORD,
      ...credentials,
    };
  }
  return { kind: "cluster", nodes: addresses(env.REDIS_CLUSTER_NODES ?? "", 6379), ...credentials };
}
