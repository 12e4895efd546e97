import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

/** One rendered Kubernetes object, before validation. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Record<string, string>;
  };
  readonly [field: string]: unknown;
}

/** The kubectl on PATH and the kustomize version it embeds, or why there is none usable. */
export type KubectlProbe =
  | { readonly found: true; readonly kustomizeMajor: number; readonly version: string }
  | { readonly found: false; readonly reason: string };

/** Whether `kubectl kustomize` can render the overlays: kustomize v5 (kubectl 1.27+) for components and labels. */
export function probeKubectl(): KubectlProbe {
  const run = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8", timeout: 30_000 });
  if (run.error !== undefined || run.status !== 0) {
    return {
      found: false,
      reason: `kubectl is not installed or failed (${run.error?.message ?? run.stderr})`,
    };
  }
  const kustomize = /Kustomize Version: v(\d+)\./.exec(run.stdout);
  if (kustomize === null)
    return { found: false, reason: `kubectl embeds no kustomize: ${run.stdout.trim()}` };
  const major = Number(kustomize[1]);
  if (major < 5)
    return { found: false, reason: `kubectl's kustomize v${major} is too old (v5: kubectl 1.27+)` };
  return { found: true, kustomizeMajor: major, version: run.stdout.trim().replace(/\s+/g, " ") };
}

/** Parses a multi-document YAML text into objects, failing on any YAML error. */
export function parseObjects(text: string, source: string): KubeObject[] {
  return parseAllDocuments(text).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`${source}: ${document.errors[0]?.message}`);
    const value = document.toJS() as KubeObject | null;
    return value === null ? [] : [value];
  });
}

/** `kubectl kustomize <dir>`: the objects an apply -k would send, offline. */
export function renderKustomization(dir: string): KubeObject[] {
  const run = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8", timeout: 60_000 });
  if (run.error !== undefined) throw run.error;
  if (run.status !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${run.stderr}`);
  return parseObjects(run.stdout, dir);
}

/** The objects of a plain manifest file (one not in any kustomization, such as an example). */
export function readManifest(path: string): KubeObject[] {
  return parseObjects(readFileSync(path, "utf8"), path);
}
