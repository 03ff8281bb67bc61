import type { LoggedGateway } from '@infergate/testkit';
import { testApiKey } from './edge-test-env.js';
import { startEdgeOnNode } from './start-edge-on-node.js';

/** The edge app on Node, configured as an operator would (INFERGATE_CONFIG_JSON), its request log lines kept. */
export async function startLoggedEdge(file: Record<string, unknown>): Promise<LoggedGateway> {
  const lines: Record<string, unknown>[] = [];
  const gateway = await startEdgeOnNode(
    { INFERGATE_API_KEYS: testApiKey, INFERGATE_CONFIG_JSON: JSON.stringify(file) },
    (line) => lines.push(line.fields),
  );
  return { ...gateway, requestLog: () => lines };
}
