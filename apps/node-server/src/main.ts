#!/usr/bin/env node
import { parseCliArgs } from '@infergate/upstream/node';
import { buildServer } from './build-server.js';
import { createLogger } from './create-logger.js';
import { explainStartFailure } from './explain-start-failure.js';
import { helpText } from './help-text.js';
import { loadConfig } from './load-config.js';
import { startBanner } from './start-banner.js';

/** Exit code of a start refused for its configuration or arguments. */
const badConfigExitCode = 2;
/** Exit code of a start that failed on its environment: the port, a permission, Redis. */
const startFailureExitCode = 1;

function fail(message: string): never {
  process.stderr.write(`infergate: ${message}\n`);
  process.exit(badConfigExitCode);
}

async function start(): Promise<void> {
  let args;
  try {
    args = parseCliArgs(process.argv.slice(2), { '--config': 'INFERGATE_CONFIG', '--host': 'HOST', '--port': 'PORT' });
  } catch (error) {
    fail((error as Error).message);
  }
  if (args.help) {
    process.stdout.write(helpText);
    return;
  }

  let loaded;
  try {
    loaded = await loadConfig({ ...process.env, ...args.env });
  } catch (error) {
    // ConfigError and ConfigFileError messages start with the path of the field at fault.
    fail(`invalid configuration: ${(error as Error).message}`);
  }
  const { config, generatedKey } = loaded;

  const logger = createLogger(process.env.LOG_LEVEL ?? 'info');
  let server, address, metricsAddress;
  try {
    server = await buildServer(config, { logger, requireRedis: true });
    address = await server.app.listen({ host: config.server.host, port: config.server.port });
    metricsAddress = await server.listenMetrics();
  } catch (error) {
    // Port taken, no permission, Redis away: one line with the address and the fix, not a stack.
    const explained = explainStartFailure(error, config);
    if (explained === undefined) throw error;
    process.stderr.write(`infergate: ${explained}\n`);
    process.exit(startFailureExitCode);
  }
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second signal means the operator will not wait for running streams.
      process.exit(1);
    }
    stopping = true;
    // SIGTERM is how orchestrators and load balancers retire a replica: /readyz turns 503 and the
    // listener keeps serving until they have stopped sending (timeouts.drain_delay_ms). SIGINT is a
    // person at a terminal, with no load balancer to wait for.
    const drainMs = signal === 'SIGTERM' ? config.timeouts.drainDelayMs : 0;
    server.drain();
    logger.info({ signal, drainMs, graceMs: config.timeouts.shutdownGraceMs }, 'shutting down');
    const drained = new Promise((resolve) => setTimeout(resolve, drainMs));
    drained.then(() => server.close()).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ errorName: (error as Error).name }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // Before the banner: whoever reads it (a supervisor, a test, a person) may signal at once, and a
  // signal without a handler would kill the process instead of draining it.
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.stdout.write(startBanner({ address, metricsAddress, config, generatedKey, env: { ...process.env, ...args.env } }));
}

await start();
