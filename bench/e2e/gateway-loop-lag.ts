import type { SharpsharpProcess } from "./processes.js";

/**
 * The gateway's own event-loop stalls during a run, read from each process's
 * `/metrics` (`ss_process_nodejs_eventloop_lag_max_seconds`, which prom-client
 * resets at every scrape, so each scrape gives the worst stall of its window).
 * A p99 that moves with no CPU to explain it is often a stall; this tells a
 * stall in the gateway from queueing in front of it.
 */
export interface GatewayLoopLag {
  /** Stops scraping; per process, the worst window and the windows above 50 ms, in ms. */
  stop(): Promise<Record<string, { maxMs: number; windowsOver50Ms: number; windows: number }>>;
}

const LAG_MAX = /^ss_process_nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? ([0-9.eE+-]+)$/m;

async function scrapeLagMaxMs(metricsUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(2000) });
    const seconds = Number(LAG_MAX.exec(await response.text())?.[1]);
    return Number.isFinite(seconds) ? seconds * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Scrapes every `everyMs` each process whose startup line named its metrics URL. */
export function watchGatewayLoopLag(processes: readonly SharpsharpProcess[], everyMs = 5000): GatewayLoopLag {
  const watched = processes.flatMap((p) => {
    const url = /metrics on (http:\/\/\S+?\/metrics)/.exec(p.output())?.[1];
    return url === undefined ? [] : [{ name: p.name, url, windows: [] as number[] }];
  });
  const scrapeAll = async (): Promise<void> => {
    await Promise.all(
      watched.map(async (one) => {
        const lag = await scrapeLagMaxMs(one.url);
        if (lag !== undefined) one.windows.push(lag);
      }),
    );
  };
  // The first scrape only resets the window, so start-up does not count.
  let pending = scrapeAll().then(() => {
    for (const one of watched) one.windows.length = 0;
  });
  const timer = setInterval(() => {
    pending = pending.then(scrapeAll);
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await pending.then(scrapeAll);
      return Object.fromEntries(
        watched.map((one) => [
          one.name,
          {
            maxMs: Math.round(Math.max(0, ...one.windows)),
            windowsOver50Ms: one.windows.filter((lag) => lag > 50).length,
            windows: one.windows.length,
          },
        ]),
      );
    },
  };
}
