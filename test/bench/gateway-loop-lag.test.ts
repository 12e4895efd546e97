import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { watchGatewayLoopLag } from "../../bench/e2e/gateway-loop-lag.js";
import { type SharpsharpProcess, TailBuffer } from "../../bench/e2e/processes.js";

describe("TailBuffer", () => {
  it("keeps the last `limit` characters across chunks", () => {
    const tail = new TailBuffer(10);
    tail.push("metrics on http://x/metrics\n");
    tail.push("abc");
    tail.push("defgh");
    expect(tail.text()).toBe("s\nabcdefgh");
    tail.push("ijklmnop");
    expect(tail.text()).toBe("ghijklmnop");
    expect(tail.text()).toHaveLength(10);
  });
});

describe("watchGatewayLoopLag", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("takes each window's worst stall from /metrics, ignoring the start-up window", async () => {
    // What prom-client reports at each scrape: the first is start-up, then 12 ms, 80 ms, 30 ms.
    const lags = ["0.5", "0.012", "0.08", "0.03"];
    let scrapes = 0;
    server = createServer((request, response) => {
      const lag = lags[Math.min(scrapes, lags.length - 1)];
      scrapes += 1;
      response.end(
        request.url === "/metrics"
          ? `ss_process_nodejs_eventloop_lag_max_seconds_other 9\nss_process_nodejs_eventloop_lag_max_seconds ${lag}\n`
          : "",
      );
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const gateway = {
      name: "embedded",
      output: () =>
        `sharpsharp running embedded on http://127.0.0.1:3000 (metrics on http://127.0.0.1:${port}/metrics)`,
    } as unknown as SharpsharpProcess;
    const silent = { name: "worker", output: () => "no admin listener" } as unknown as SharpsharpProcess;

    const watch = watchGatewayLoopLag([gateway, silent], 20);
    while (scrapes < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const lag = await watch.stop();

    expect(lag).toEqual({ embedded: { maxMs: 80, windowsOver50Ms: 1, windows: scrapes - 1 } });
  });
});
