#!/usr/bin/env node
import { parseCliArgs } from '@infergate/upstream/node';
import { buildServer } from './build-server.js';
import { createLogger } from './create-logger.js';
import { describeBackends } from './describe-backends.js';
import { helpText } from './help-text.js';
import { loadConfig } from './load-config.js';

/** Exit code of a start refused for its configuration or arguments. */
const badConfigExitCode = 2;

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
  const server = await buildServer(config, { logger });
  const address = await server.app.listen({ host: config.server.host, port: config.server.port });
  const metricsAddress = await server.listenMetrics();
  const metricsNote = metricsAddress === undefined ? '' : `; metrics on ${metricsAddress}/metrics`;
  process.stdout.write(`infergate listening on ${address}; ${describeBackends(config)}${metricsNote}\n`);
  if (generatedKey) process.stdout.write(`API key (generated because none is configured; shown only now): ${generatedKey}\n`);

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
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

await start();
