import { ScaledObject } from "@kubernetes-models/keda/keda.sh/v1alpha1";
import { ServiceMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Secret, Service } from "kubernetes-models/v1";
import type { KubeObject } from "./kustomize.js";

// kubernetes-models 4.5.1 (Node 14+, unlike 5.x which asks for Node 22) ships ajv validators compiled from the
// Kubernetes OpenAPI spec (fields up to 1.31: preStop sleep, image volumes), and its KEDA and Prometheus
// Operator packages the same for their CRDs; nothing is fetched at test time. They check types, required
// fields, enums and formats, not unknown fields: the behaviour tests read the fields that matter, so a
// misspelled one fails there.

/** A kubernetes-models class: built from an object, `validate()` throws with what the schema refuses. */
type Model = new (data: never) => { validate(): void };

// The kinds deploy/kubernetes uses; a kind not listed here fails the test rather than going unchecked.
const MODELS: ReadonlyMap<string, Model> = new Map<string, Model>([
  ["v1/ConfigMap", ConfigMap],
  ["v1/Secret", Secret],
  ["v1/Service", Service],
  ["apps/v1/Deployment", Deployment],
  ["policy/v1/PodDisruptionBudget", PodDisruptionBudget],
  ["autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler],
  ["keda.sh/v1alpha1/ScaledObject", ScaledObject],
  ["monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor],
]);

/** What the Kubernetes (or the CRD's) schema says is wrong with `object`; empty when it validates. */
export function validateKubernetesObject(object: KubeObject): string[] {
  const model = MODELS.get(`${object.apiVersion}/${object.kind}`);
  if (model === undefined) return [`no schema for ${object.apiVersion} ${object.kind}`];
  try {
    new model(object as never).validate();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}
