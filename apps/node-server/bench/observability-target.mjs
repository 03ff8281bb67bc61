// One gateway under measurement, in a process of its own so that its CPU time is its alone.
// The parent sends the config file value; this process answers with its address, then with its
// CPU usage whenever asked.
import process from 'node:process';
import { resolveGatewayConfig } from '@infergate/core';
import { buildServer } from '../dist/index.js';

process.once('message', async (file) => {
  const config = resolveGatewayConfig(file, { INFERGATE_API_KEYS: 'bench-key-0123456789abcdef' });
  const server = await buildServer(config);
  const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', async (message) => {
    if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
    if (message === 'stop') {
      await server.close(100);
      process.exit(0);
    }
  });
  process.send({ address });
});
