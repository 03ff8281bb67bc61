#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import {
  closeOnSignals,
  exitOnStartFailure,
  shutDownWhenOrphaned,
  parseCliArgs,
  printGeneratedKey,
  refuseStart,
  reloadKeysOnSignal,
} from '@infergate/node-runtime';
import { buildServer } from './build-server.js';
import { createLogger } from './create-logger.js';
import { helpText } from './help-text.js';
import { loadConfig } from './load-config.js';
import { startBanner } from './start-banner.js';

// A heap where nearly everything dies with its request: the flags and their measured gains are in
// docs/performance.md ("Speed-only constructs"). An operator's own `node --heap-growing-percent=N` wins.
function setV8Flags(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
  if (
    !process.execArgv.some((arg) => arg.replaceAll('_', '-').startsWith('--heap-growing-percent'))
  )
    setFlagsFromString('--heap-growing-percent=300');
}

async function start(): Promise<void> {
  setV8Flags();
  let args;
  try {
    args = parseCliArgs(process.argv.slice(2), {
      '--config': 'INFERGATE_CONFIG',
      '--host': 'HOST',
      '--port': 'PORT',
    });
  } catch (error) {
    refuseStart('infergate', (error as Error).message);
  }
  if (args.help) {
    process.stdout.write(helpText);
    return;
  }

  let loaded;
  try {
    loaded = await loadConfig({ ...process.env, ...args.env });
  } catch (error) {
    refuseStart('infergate', `invalid configuration: ${(error as Error).message}`);
  }
  const { config, generatedKey, file } = loaded;

  const logger = createLogger(process.env.LOG_LEVEL ?? 'info');
  let server, address, metricsAddress;
  try {
    server = await buildServer(config, { logger, waitForRedis: true });
    address = await server.app.listen({ host: config.server.host, port: config.server.port });
    metricsAddress = await server.listenMetrics();
  } catch (error) {
    exitOnStartFailure('infergate', error, config);
  }
  // Ready for signals before the banner says it is listening: a script may signal as soon as it reads it.
  closeOnSignals({
    drainDelayMs: config.timeouts.drainDelayMs,
    drain: () => server.drain(),
    close: () => server.close(),
    onSignal: (signal, drainMs) =>
      logger.info({ signal, drainMs, graceMs: config.timeouts.shutdownGraceMs }, 'shutting down'),
    onError: (error) => logger.error({ errorName: (error as Error).name }, 'shutdown failed'),
    flushLogs: () => new Promise((resolve) => logger.flush(() => resolve())),
  });
  reloadKeysOnSignal({
    gateway: server.gateway,
    log: logger,
    env: { ...process.env, ...args.env },
    startFile: file,
  });
  // Started by npx or a package manager's script (npm_lifecycle_event is theirs): see shutDownWhenOrphaned.
  if (process.env.npm_lifecycle_event !== undefined) shutDownWhenOrphaned();
  if (generatedKey !== undefined) printGeneratedKey(generatedKey);
  process.stdout.write(
    startBanner({
      address,
      metricsAddress,
      config,
      generatedKey,
      env: { ...process.env, ...args.env },
    }),
  );
}

await start();
