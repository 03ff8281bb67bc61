/** One attempt of an upstream call, as a tracer sees it (never a body, URL or key). */
export interface UpstreamAttemptInfo {
  modelId: string;
  /** Path on the upstream, e.g. `/v1/chat/completions`. */
  path: string;
  /** The configured upstream name (never its URL). */
  upstream: string;
  /** 1 for the first try, 2 for a retry. */
  attempt: number;
  stream: boolean;
}

export interface UpstreamAttemptSpan {
  /** Headers to send with the attempt: W3C `traceparent` (and `tracestate`) of the attempt's span. */
  headers: Readonly<Record<string, string>>;
  /** Called once: when a JSON answer is read, a stream ends, or the attempt fails. */
  end(outcome: { status?: number; error?: string }): void;
}

/**
 * Traces upstream attempts. The port stays free of any tracing library: the app implements this
 * (the node-server with OpenTelemetry) and finds the parent span itself.
 */
export interface UpstreamTracer {
  startAttempt(info: UpstreamAttemptInfo): UpstreamAttemptSpan;
}
