import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import type { StartedGateway } from '@infergate/testkit';
import { testApiKey } from './edge-test-env.js';

/** The Workers build as deployed: `pnpm build` makes it, turbo runs the build before these tests. */
export const workerScript = fileURLToPath(new URL('../dist/worker.js', import.meta.url));

/** As in wrangler.toml (a test holds the two together), so that the tests run the Worker as it is deployed. */
const compatibility = {
  compatibilityDate: '2026-04-01',
  compatibilityFlags: ['enable_request_signal'],
};

export interface WorkerdGateway extends StartedGateway {
  miniflare: Miniflare;
}

/** dist/worker.js inside workerd (Miniflare), listening on a loopback port, with the given bindings. */
export async function startEdgeInWorkerd(
  bindings: Record<string, string>,
): Promise<WorkerdGateway> {
  const miniflare = new Miniflare({
    scriptPath: workerScript,
    modules: true,
    cf: false,
    ...compatibility,
    bindings,
    host: '127.0.0.1',
    port: 0,
  });
  const url = await miniflare.ready;
  return { baseUrl: url.origin, apiKey: testApiKey, miniflare, close: () => miniflare.dispose() };
}
