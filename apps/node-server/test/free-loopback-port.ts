import { once } from 'node:events';
import { createServer } from 'node:net';

/** A loopback port free right now, for a server that must be told its port (redis-server, nginx, a restarted replica). */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no loopback port');
  return address.port;
}
