import type { IncomingHttpHeaders } from 'node:http';

/** What a test upstream saw of one request, and when. Times are `Date.now()` milliseconds. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The body parsed as JSON, undefined when empty or not JSON. */
  body: unknown;
  arrivedAt: number;
  /** When the exchange ended: the response finished, or the gateway closed the connection first. */
  closedAt: number | undefined;
  /** True when the gateway went away before the response had finished (an upstream abort). */
  aborted: boolean;
  /** The script the scripted upstream ran for it. */
  script?: string;
  /** Resolves once the exchange has ended (closedAt is set). */
  closed: Promise<void>;
}
