/** Polls `check` until it holds, failing after `timeoutMs`. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 5000,
  everyMs = 25,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
