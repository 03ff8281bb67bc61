import { runGatewayContract, upstreamsServingEverything } from '@infergate/testkit';
import { startNodeGateway } from './start-node-gateway.js';

runGatewayContract({
  name: 'node-server, zero-config (local backend in-process)',
  start: (upstreamUrl) =>
    upstreamUrl
      ? startNodeGateway({ upstreams: upstreamsServingEverything(upstreamUrl) })
      : startNodeGateway(),
});
