import { startLocalBackendServer } from '@infergate/local-backend/node';
import { runGatewayContract, upstreamsServingEverything } from '@infergate/testkit';
import { startNodeGateway } from './start-node-gateway.js';

runGatewayContract({
  name: 'node-server, local backend over a loopback socket',
  async start(upstreamUrl) {
    if (upstreamUrl)
      return startNodeGateway({ upstreams: upstreamsServingEverything(upstreamUrl) });
    const backend = await startLocalBackendServer({ host: '127.0.0.1', port: 0 });
    const gateway = await startNodeGateway({ upstreams: upstreamsServingEverything(backend.url) });
    return {
      ...gateway,
      async close() {
        await gateway.close();
        await backend.close();
      },
    };
  },
});
