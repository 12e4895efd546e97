import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, secretValuesOf } from "./index.js";

const tenant = { WHATSAPP_APP_SECRET: "s3cret", WHATSAPP_VERIFY_TOKEN: "verify-me" };
const load = (env: Record<string, string>) =>
  loadConfig({ env: { ...tenant, ...env }, cwd: mkdtempSync(join(tmpdir(), "ss-tracing-")) });

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected a ConfigError");
}

describe("the tracing configuration", () => {
  it("is off with no OTLP endpoint, whatever else is set", () => {
    expect(load({}).tracing).toBeUndefined();
    expect(load({ OTEL_SERVICE_NAME: "x", OTEL_TRACES_SAMPLER: "always_on" }).tracing).toBeUndefined();
  });

  it("sends to <endpoint>/v1/traces, or to the traces endpoint as given, with the defaults", () => {
    expect(load({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).tracing).toEqual({
      url: "http://collector:4318/v1/traces",
      protocol: "http/protobuf",
      headers: {},
      serviceName: "sharpsharp",
      sampler: "parentbased_always_on",
      samplerRatio: 1,
    });
    const both = load({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp/traces",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "gateway-lagos",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
    }).tracing;
    expect(both).toMatchObject({
      url: "https://traces.example/otlp/traces",
      protocol: "http/json",
      serviceName: "gateway-lagos",
      sampler: "parentbased_traceidratio",
      samplerRatio: 0.25,
    });
  });

  it("is off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, even with an endpoint", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(load({ ...endpoint, OTEL_SDK_DISABLED: "TRUE" }).tracing).toBeUndefined();
    expect(load({ ...endpoint, OTEL_TRACES_EXPORTER: "none" }).tracing).toBeUndefined();
    expect(load({ ...endpoint, OTEL_SDK_DISABLED: "false" }).tracing).toBeDefined();
  });

  it("decodes the headers, the traces ones winning, and treats their values as secrets", () => {
    const config = load({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "X-Api-Key=general-key-123,x-tenant=a%20b",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-api-key=traces-key-456",
    });
    expect(config.tracing?.headers).toEqual({ "x-api-key": "traces-key-456", "x-tenant": "a b" });
    expect(secretValuesOf(config)).toContain("traces-key-456");
  });

  it("reports every bad tracing variable at once, never echoing a header value", () => {
    const problems = problemsOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      OTEL_EXPORTER_OTLP_HEADERS: "just-a-secret-token",
      OTEL_TRACES_SAMPLER: "sometimes",
      OTEL_TRACES_SAMPLER_ARG: "1.5",
      OTEL_TRACES_EXPORTER: "zipkin",
    });
    expect(problems.map((problem) => problem.split(":")[0])).toEqual([
      "OTEL_TRACES_EXPORTER",
      "OTEL_EXPORTER_OTLP_ENDPOINT",
      "OTEL_EXPORTER_OTLP_PROTOCOL",
      "OTEL_EXPORTER_OTLP_HEADERS",
      "OTEL_TRACES_SAMPLER",
      "OTEL_TRACES_SAMPLER_ARG",
    ]);
    expect(problems.join("\n")).toContain("grpc is not supported");
    expect(problems.join("\n")).not.toContain("just-a-secret-token");
  });
});
