#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startLocalBackendServer } from './node/start-local-backend-server.js';

const usage = `infergate-local-backend: the embedded infergate model server (vLLM-, TEI-, Cohere- and OpenAI-images-style)

Usage: infergate-local-backend [options]

  --host <address>              address to bind (default 127.0.0.1)
  --port <number>               port to listen on, 0 for any free port (default 8000)
  --tokens-per-second <number>  pace generated tokens, streamed and not (default unlimited)
  --first-token-delay-ms <ms>   wait before the first generated token (default 0)
  --help                        show this help`;

function numberOption(
  name: string,
  value: string | undefined,
  fallback: number | undefined,
): number | undefined {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0)
    throw new Error(`--${name} must be a non-negative number, got '${value}'`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'tokens-per-second': { type: 'string' },
      'first-token-delay-ms': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const server = await startLocalBackendServer({
    host: values.host ?? '127.0.0.1',
    port: numberOption('port', values.port, 8000),
    tokensPerSecond: numberOption('tokens-per-second', values['tokens-per-second'], undefined),
    firstTokenDelayMs: numberOption(
      'first-token-delay-ms',
      values['first-token-delay-ms'],
      undefined,
    ),
  });
  process.stdout.write(`infergate local backend listening on ${server.url}\n`);
  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `infergate-local-backend: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
