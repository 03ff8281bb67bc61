import type { MetricsSink, RequestLogLine } from '@infergate/core';

/** Where a request Node refuses before the app sees it goes, as the app's own requests go. */
export interface NodeRefusalOptions {
  /** The app's request log: one line (core's requestLogLine, route `unmatched`). */
  log?: (line: RequestLogLine) => void;
  /** The app's metrics: counted under operation id `unmatched`. */
  metrics?: Pick<MetricsSink, 'record'>;
}
