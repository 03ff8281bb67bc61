import { startLocalBackendServer } from '@infergate/local-backend/node';
import { runGatewayContract } from '@infergate/testkit';
import { edgeTestBindings } from './edge-test-env.js';
import { startEdgeInWorkerd } from './start-edge-in-workerd.js';

runGatewayContract({
  name: 'edge app in workerd (Miniflare running dist/worker.js), local backend over a loopback socket',
  // Local workerd does not signal an HTTP/1.1 client that leaves before the response starts, even with
  // enable_request_signal; Cloudflare documents that deployed Workers do. Mid-stream aborts are seen.
  earlyDisconnectUndetectable:
    'local workerd does not signal a client that leaves before the response starts (cloudflare/workerd#5062)',
  async start(upstreamUrl) {
    if (upstreamUrl) return startEdgeInWorkerd(edgeTestBindings({ upstreamUrl }));
    const backend = await startLocalBackendServer({ host: '127.0.0.1', port: 0 });
    const gateway = await startEdgeInWorkerd(edgeTestBindings({ localBackendUrl: backend.url }));
    return {
      ...gateway,
      async close() {
        await gateway.close();
        await backend.close();
      },
    };
  },
});
