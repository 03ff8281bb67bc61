import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import process from 'node:process';

/** A redis-server without persistence on a free loopback port, for the limiter benches; stop() kills it. */
export async function startBenchRedis() {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  child.on('error', (error) => {
    process.stderr.write(
      `redis-server could not start (${error.message}); install it: apt-get install -y redis-server\n`,
    );
    process.exit(1);
  });
  let output = '';
  for await (const chunk of child.stdout) {
    output += chunk;
    if (output.includes('Ready to accept connections')) break;
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}
