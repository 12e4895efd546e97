import type { KubeObject } from "./kustomize.js";

export type { KubeObject } from "./kustomize.js";

/** The fields of a container the deploy test reads (validated against the schema before it reads them). */
export interface Container {
  readonly name: string;
  readonly image?: string;
  readonly args?: readonly string[];
  readonly env?: readonly {
    readonly name: string;
    readonly value?: string;
    readonly valueFrom?: { readonly secretKeyRef?: { readonly name?: string; readonly key: string } };
  }[];
  readonly envFrom?: readonly {
    readonly configMapRef?: { readonly name?: string };
    readonly secretRef?: { readonly name?: string };
  }[];
  readonly ports?: readonly { readonly name?: string; readonly containerPort: number }[];
  readonly readinessProbe?: Probe;
  readonly livenessProbe?: Probe;
  readonly lifecycle?: { readonly preStop?: { readonly sleep?: { readonly seconds: number } } };
  readonly resources?: {
    readonly requests?: Readonly<Record<string, string>>;
    readonly limits?: Readonly<Record<string, string>>;
  };
  readonly securityContext?: {
    readonly readOnlyRootFilesystem?: boolean;
    readonly allowPrivilegeEscalation?: boolean;
    readonly capabilities?: { readonly drop?: readonly string[] };
  };
  readonly volumeMounts?: readonly { readonly name: string; readonly mountPath: string }[];
}

export interface Probe {
  readonly httpGet?: { readonly path?: string; readonly port: number | string };
}

export interface PodSpec {
  readonly containers: readonly Container[];
  readonly terminationGracePeriodSeconds?: number;
  readonly automountServiceAccountToken?: boolean;
  readonly securityContext?: { readonly runAsNonRoot?: boolean };
  readonly volumes?: readonly { readonly name: string; readonly emptyDir?: object }[];
}

export interface Deployment extends KubeObject {
  readonly spec?: {
    readonly replicas?: number;
    readonly template: {
      readonly metadata?: { readonly labels?: Record<string, string> };
      readonly spec: PodSpec;
    };
  };
}

/** A Deployment with its pod spec, containers and the sharpsharp command its first container runs. */
export interface DeploymentView {
  readonly deployment: Deployment;
  readonly pod: PodSpec;
  readonly containers: readonly Container[];
  /** `ingress`, `worker`, `console`: the container's first argument (the image's entrypoint is the CLI). */
  readonly command: string;
}

export function objectsOf(objects: readonly KubeObject[], kind: string): KubeObject[] {
  return objects.filter((object) => object.kind === kind);
}

/** The one object of that kind and name; throws when there is none. */
export function objectOf(objects: readonly KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (found === undefined) throw new Error(`no ${kind} named ${name}`);
  return found;
}

export function deploymentsOf(objects: readonly KubeObject[]): DeploymentView[] {
  return objectsOf(objects, "Deployment").map((object) => {
    const deployment = object as Deployment;
    const pod = deployment.spec?.template.spec as PodSpec;
    return { deployment, pod, containers: pod.containers, command: pod.containers[0]?.args?.[0] ?? "" };
  });
}
