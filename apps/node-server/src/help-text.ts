/** What `--help` prints: every flag and environment variable the server reads. */
export const helpText = `infergate: an HTTP JSON inference gateway (Fastify)

Usage: infergate [--config <file>] [--host <address>] [--port <number>]

Flags:
  --config <file>   same as INFERGATE_CONFIG
  --host <address>  same as HOST
  --port <number>   same as PORT
  --help            print this text and exit

Environment:
  HOST                address to listen on (default 127.0.0.1)
  PORT                port to listen on (default 8080)
  INFERGATE_API_KEYS  comma-separated API keys; with none here or in the config file,
                      a key is generated at start and printed once
  INFERGATE_CONFIG    a YAML (.yaml, .yml) or JSON (.json) file: upstreams, models, keys,
                      limits, timeouts, prices, master URL; validated at start
  LOG_LEVEL           pino level of the request log (default info)

With no upstreams configured, the embedded local backend serves every catalogue model.
Signals: SIGTERM drains and stops (SIGINT too, without the drain's delay); SIGHUP reads
INFERGATE_CONFIG again and applies its keys to new requests (a bad file changes nothing and
logs the field at fault).
A bad configuration stops the start with a message naming the field, exit code 2.
A port in use, a port needing privileges or Redis out of reach (redis.url) stops it with one line
naming the address and the fix, exit code 1. Once listening it prints the docs URL (GET / redirects
there) and a curl command that works as printed.
`;
