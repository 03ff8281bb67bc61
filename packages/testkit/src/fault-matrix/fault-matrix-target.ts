import type { StartedGateway } from '../contract/contract-client.js';

/** A config-file value (docs/design.md "Configuration file"): upstreams, limits, timeouts, retries. */
export type ConfigFileValue = Record<string, unknown>;

/**
 * An app under the fault matrix: `start` runs it in this process on 127.0.0.1:0 with the given
 * config-file value (the same value both apps accept: the node-server's file, the edge app's
 * INFERGATE_CONFIG_JSON) and a key of its own; `close()` is its graceful shutdown.
 */
export interface FaultMatrixTarget {
  /** e.g. `node-server`, `edge on Node`; shown in titles and in the recorded figures. */
  name: string;
  start(file: ConfigFileValue): Promise<StartedGateway>;
  /**
   * Starts the app at its most verbose log level with every log line kept in memory (row 7). Absent
   * when the app writes no logs of its own; row 7 then checks responses only.
   */
  startWithLogs?(file: ConfigFileValue): Promise<{ gateway: StartedGateway; logs(): string }>;
  /**
   * Rows this app is known to fail, each with the reason: they run as expected failures (reported,
   * never skipped), so a fix shows up as a test to flip.
   */
  knownFailures?: Readonly<Partial<Record<number, string>>>;
}
