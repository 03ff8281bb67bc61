import { runKeyReloadContract } from '@infergate/testkit';
import { startGatewayProcess } from './start-gateway-process.js';

// The built CLI, as `pnpm start` runs it, with its request log at info on stdout.
runKeyReloadContract({
  name: 'node-server',
  start: (file) => startGatewayProcess(file, undefined, { logLevel: 'info' }),
});
