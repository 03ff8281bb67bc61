export interface ShutdownDeadlineActions {
  /** Aborts every request still running: streams send their terminal error event (an in-protocol end). */
  endRunning(): void;
  /** Closes every connection still open. */
  cutAll(): void;
}

/**
 * The two deadlines of a graceful close within `graceMs`: shortly before the end (250 ms, or half a
 * short grace) running requests are ended, so that clients see an in-protocol end rather than a cut;
 * at the end what is still open is cut. Returns the cancel to call once the close is done.
 */
export function shutdownDeadlines(graceMs: number, actions: ShutdownDeadlineActions): () => void {
  const endingMs = Math.min(250, Math.floor(graceMs / 2));
  const ending = setTimeout(actions.endRunning, graceMs - endingMs);
  const deadline = setTimeout(actions.cutAll, graceMs);
  ending.unref();
  deadline.unref();
  return () => {
    clearTimeout(ending);
    clearTimeout(deadline);
  };
}
