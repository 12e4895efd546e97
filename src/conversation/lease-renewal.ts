/**
 * Renews a lease every third of its length until stopped, so a short lease
 * (quick takeover after a crash) outlives a long turn. A failed renewal is
 * reported and retried at the next tick: the lease may still be ours.
 */
export function keepLeaseAlive(
  renew: () => Promise<unknown>,
  leaseMs: number,
  onError: (error: unknown) => void,
): () => void {
  const timer = setInterval(
    () => {
      renew().catch(onError);
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
