export interface SignalShutdown {
  /** How long SIGTERM keeps the listener serving after readiness turns off (timeouts.drain_delay_ms). */
  drainDelayMs: number;
  /** Turns readiness off (/readyz 503); every other request is served as before. */
  drain(): void;
  /** The graceful close: stop accepting, let running responses finish within the grace, then cut. */
  close(): Promise<void>;
  /** Told once, when the first signal arrives. */
  onSignal?(signal: NodeJS.Signals, drainMs: number): void;
  /** Told when the close failed; the process then exits 1. */
  onError?(error: unknown): void;
  /** Resolves once the log lines written so far are out; the exit waits for it, up to a bound. */
  flushLogs?(): Promise<void>;
}

// A log reader that takes nothing for this long must not hold the exit: the rest is written at exit.
const flushLimitMs = 2_000;
// One Ctrl-C can arrive twice at once: from the terminal's process group and from a package manager
// (pnpm, npm) passing it on. A person's second Ctrl-C comes later than this.
const sameSignalMs = 500;

/**
 * SIGTERM and SIGINT for a Node entry point. SIGTERM is how orchestrators and load balancers retire a
 * replica: readiness turns off and the listener keeps serving for `drainDelayMs`, until they have
 * stopped sending, then closes gracefully. SIGINT is a person at a terminal, with no load balancer to
 * wait for: it closes at once. A second signal means the operator will not wait for running streams.
 */
export function closeOnSignals(target: SignalShutdown): void {
  let firstSignalAt: number | undefined;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (firstSignalAt !== undefined) {
      if (Date.now() - firstSignalAt >= sameSignalMs) process.exit(1);
      return;
    }
    firstSignalAt = Date.now();
    const drainMs = signal === 'SIGTERM' ? target.drainDelayMs : 0;
    target.drain();
    target.onSignal?.(signal, drainMs);
    const drained = new Promise((resolve) => setTimeout(resolve, drainMs));
    // A log write still under way at process.exit() is lost with its lines: let it finish first.
    const exit = async (code: number): Promise<never> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, flushLimitMs)));
      await Promise.race([target.flushLogs?.(), limit]);
      clearTimeout(timer);
      process.exit(code);
    };
    drained
      .then(() => target.close())
      .then(
        () => exit(0),
        (error: unknown) => {
          target.onError?.(error);
          return exit(1);
        },
      );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
