#!/usr/bin/env node
import type { EdgeBindings } from './edge-bindings.js';
import { createJsonLog } from '@infergate/core';
import {
  closeOnSignals,
  configFileIntoJsonBinding,
  jsonLineReloadLog,
  parseCliArgs,
  printGeneratedKey,
  refuseStart,
  reloadKeysOnSignal,
} from '@infergate/node-runtime';
import { startEdgeNodeServer } from './start-edge-node-server.js';

const helpText = `infergate edge: the infergate gateway on Hono, here on Node (@hono/node-server)

Usage: infergate-edge [--host <address>] [--port <number>]

Environment (the same names are Workers bindings):
  HOST                         address to listen on (default 127.0.0.1)
  PORT                         port to listen on (default 8787)
  INFERGATE_API_KEYS           comma-separated API keys; with none here or in the configuration,
                               a key is generated at start and printed once
  INFERGATE_CONFIG_JSON        the configuration file's content as JSON (upstreams, models, keys,
                               limits, timeouts, prices, master URL); validated at start
  INFERGATE_CONFIG             or a configuration file (.yaml, .yml or .json) to read instead; on
                               SIGHUP it is read again and its keys apply to new requests
  INFERGATE_LOCAL_BACKEND_URL  a local backend server for the models no upstream serves; without
                               it the local backend runs in-process
  LOG_LEVEL                    trace, debug, info (default), warn, error or silent: one JSON line
                               per request on stdout, refusals at warn
`;

let args;
try {
  args = parseCliArgs(process.argv.slice(2), { '--host': 'HOST', '--port': 'PORT' });
} catch (error) {
  refuseStart('infergate-edge', (error as Error).message);
}
if (args.help) {
  process.stdout.write(helpText);
} else {
  const env = { ...(process.env as EdgeBindings), ...args.env };
  const level = env.LOG_LEVEL as string | undefined;
  const write = (text: string): boolean => process.stdout.write(text);
  let startFile: unknown;
  try {
    // A file stands for the JSON binding on Node (Workers have bindings only); SIGHUP reads it again.
    startFile = await configFileIntoJsonBinding(env);
  } catch (error) {
    refuseStart('infergate-edge', `invalid configuration: ${(error as Error).message}`);
  }
  let server;
  try {
    const log = createJsonLog({ level, write });
    server = await startEdgeNodeServer({ env, log });
  } catch (error) {
    refuseStart('infergate-edge', `cannot start: ${(error as Error).message}`);
  }
  // Ready for signals before the banner says it is listening: a script may signal as soon as it reads it.
  closeOnSignals({
    drainDelayMs: server.config.timeouts.drainDelayMs,
    drain: server.drain,
    close: () => server.close(),
  });
  const { gateway } = server;
  reloadKeysOnSignal({ gateway, log: jsonLineReloadLog(level, write), env, startFile });
  if (server.generatedKey) printGeneratedKey(server.generatedKey);
  process.stdout.write(`infergate edge listening on ${server.url}\n`);
}
