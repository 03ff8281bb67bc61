import { createJsonLog } from '@infergate/core';
import type { ConfigFileValue, FaultMatrixTarget } from '@infergate/testkit';
import { testApiKey } from './edge-test-env.js';
import { startEdgeOnNode } from './start-edge-on-node.js';

/** The edge app on Node (@hono/node-server) as the fault matrix's rows start it. */
export const edgeOnNode: FaultMatrixTarget = {
  name: 'edge on Node',
  knownFailures: {
    // The fetch transport cannot tell connecting from waiting for headers, so timeouts.connect_ms is
    // not applied: a blackholed upstream waits for the runtime's own connect limit (undici: 10 s)
    // and is not retried on the second endpoint within the configured limit.
    11: "fetch transport: the connect limit is the runtime's (10 s on Node), not timeouts.connect_ms",
  },
  start: (file) => startEdgeOnNode(bindingsFor(file)),
  // The request lines main-node.ts writes to stdout, kept in memory.
  async startWithLogs(file) {
    const lines: string[] = [];
    const gateway = await startEdgeOnNode(
      bindingsFor(file),
      createJsonLog({ level: 'trace', write: (text) => lines.push(text) }),
    );
    return { gateway, logs: () => lines.join('') };
  },
};

// A short shutdown grace, as the node-server's tests use: closing never waits on the default 30 s.
function bindingsFor(file: ConfigFileValue): Record<string, string> {
  return {
    INFERGATE_API_KEYS: testApiKey,
    INFERGATE_CONFIG_JSON: JSON.stringify({
      ...file,
      timeouts: { shutdown_grace_ms: 1_000, ...(file.timeouts as object | undefined) },
    }),
  };
}
