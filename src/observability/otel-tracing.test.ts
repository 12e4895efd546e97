import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import type { TracingConfig } from "../config/index.js";
import { createLogger } from "./logger.js";
import { createTracing } from "./otel-tracing.js";
import { tracingOff } from "./tracing.js";

const silent = createLogger({ level: "silent" });
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const config = (over: Partial<TracingConfig> = {}): TracingConfig => ({
  url: "http://127.0.0.1:9/v1/traces",
  protocol: "http/protobuf",
  headers: {},
  serviceName: "sharpsharp-test",
  sampler: "parentbased_always_on",
  samplerRatio: 1,
  ...over,
});

function inMemory(over: Partial<TracingConfig> = {}) {
  const exporter = new InMemorySpanExporter();
  const tracing = createTracing(config(over), { logger: silent, role: "test", exporter });
  closers.push(() => tracing.close());
  const spans = async () => {
    await tracing.flush();
    return exporter.getFinishedSpans();
  };
  return { tracing, spans };
}

/** A collector on loopback that keeps what each POST carried. */
async function startCollector(status = 200) {
  const posts: { path: string; headers: IncomingHttpHeaders; bytes: number }[] = [];
  const server = createServer((request, response) => {
    let bytes = 0;
    request.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on("end", () => {
      posts.push({ path: request.url ?? "", headers: request.headers, bytes });
      response.writeHead(status, { "content-type": String(request.headers["content-type"]) }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, posts };
}

describe("createTracing", () => {
  it("is off without a configuration or an exporter", () => {
    expect(createTracing(undefined, { logger: silent, role: "test" })).toBe(tracingOff);
  });

  it("parents a span on a traceparent and links others, as the queue carries them", async () => {
    const { tracing, spans } = inMemory();
    const [parent, other] = await Promise.all(
      ["webhook a", "webhook b"].map((name) => tracing.inSpan(name, {}, async (span) => span.traceparent)),
    );
    await tracing.inSpan("turn", { parent, links: [other, undefined, "not-a-traceparent"] }, async () => {});
    const [a, b, turn] = await spans();
    expect(parent).toBe(`00-${a?.spanContext().traceId}-${a?.spanContext().spanId}-01`);
    expect(turn?.parentSpanContext?.spanId).toBe(a?.spanContext().spanId);
    expect(turn?.spanContext().traceId).toBe(a?.spanContext().traceId);
    expect(turn?.links.map((link) => link.context.spanId)).toEqual([b?.spanContext().spanId]);
  });

  it("records a failure's code or class, never its message, and rethrows", async () => {
    const { tracing, spans } = inMemory();
    const failure = Object.assign(new Error("customer 2348012345678 said: my PIN is 1234"), {
      code: "SS_TEST_FAILED",
    });
    await expect(tracing.inSpan("step", {}, async () => Promise.reject(failure))).rejects.toBe(failure);
    await expect(
      tracing.inSpan("other", {}, async () => Promise.reject(new TypeError("x 1234"))),
    ).rejects.toThrow();
    const [step, other] = await spans();
    expect(step?.attributes).toEqual({ "error.type": "SS_TEST_FAILED" });
    expect(step?.status).toEqual({ code: 2, message: "SS_TEST_FAILED" });
    expect(other?.attributes["error.type"]).toBe("TypeError");
    expect(JSON.stringify([step?.events, other?.events, step?.status, other?.status])).not.toMatch(/1234/);
  });

  it("drops undefined attributes", async () => {
    const { tracing, spans } = inMemory();
    await tracing.inSpan("step", { attributes: { a: 1, b: undefined } }, async (span) => {
      span.setAttributes({ c: "x", d: undefined });
    });
    expect((await spans())[0]?.attributes).toEqual({ a: 1, c: "x" });
  });

  it("samples as configured, and a parent's decision holds across the queue", async () => {
    const off = inMemory({ sampler: "parentbased_always_off" });
    const carried = await off.tracing.inSpan("webhook", {}, async (span) => span.traceparent);
    expect(carried).toMatch(/-00$/);
    expect(await off.spans()).toEqual([]);

    const on = inMemory({ sampler: "parentbased_always_on" });
    await on.tracing.inSpan("turn", { parent: carried }, async () => {});
    expect(await on.spans()).toEqual([]);

    const ratio = inMemory({ sampler: "traceidratio", samplerRatio: 0 });
    await ratio.tracing.inSpan("webhook", {}, async () => {});
    expect(await ratio.spans()).toEqual([]);
  });

  it.each([
    ["http/protobuf", "application/x-protobuf"],
    ["http/json", "application/json"],
  ] as const)(
    "exports over OTLP/HTTP (%s) to the configured URL with the configured headers",
    async (protocol, type) => {
      const collector = await startCollector();
      const tracing = createTracing(
        config({ url: collector.url, protocol, headers: { "x-api-key": "collector-key-123" } }),
        { logger: silent, role: "test" },
      );
      await tracing.inSpan("webhook", { kind: "server" }, async () => {});
      await tracing.inSpan("turn", { kind: "consumer" }, async () => {});
      await tracing.close();
      expect(collector.posts.length).toBeGreaterThanOrEqual(1);
      for (const post of collector.posts) {
        expect(post.path).toBe("/v1/traces");
        expect(post.headers["content-type"]).toBe(type);
        expect(post.headers["x-api-key"]).toBe("collector-key-123");
        expect(post.bytes).toBeGreaterThan(50);
      }
    },
  );

  it("logs a failed export once (throttled) without the headers' secret, and goes on", async () => {
    const collector = await startCollector(400);
    const lines: string[] = [];
    const logger = createLogger({
      level: "warn",
      secrets: ["collector-key-123"],
      destination: new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    });
    const tracing = createTracing(
      config({ url: collector.url, headers: { authorization: "Bearer collector-key-123" } }),
      { logger, role: "test" },
    );
    closers.push(() => tracing.close());
    for (const name of ["a", "b"]) {
      await tracing.inSpan(name, {}, async () => {});
      await tracing.flush();
    }
    expect(collector.posts.length).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("could not export trace spans");
    expect(lines.join("")).not.toContain("collector-key-123");
  });
});
