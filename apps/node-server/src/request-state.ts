import type { LightAbortController, ResultMeta } from '@infergate/core';

/** What the app keeps per request for its abort signal and its one log line. */
export interface RequestState {
  startedAt: number;
  /** Aborted when the client goes away before the response has finished. */
  abort: LightAbortController;
  operationId?: string;
  /** The handler result's meta; for a stream it is final once the stream has closed. */
  meta?: ResultMeta;
  /** Gives the body's bytes back to the in-flight body budget; safe to call more than once. */
  releaseBody?: () => void;
}
