// Waiting, in tests that stop processes (Ctrl-C, SIGTERM): poll a condition until it holds or the
// time is up. Wall-clock time here only bounds a test's wait; it never decides a verdict.

/** Polls `check` every 50 ms for up to `ms`; its last answer. */
export async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
