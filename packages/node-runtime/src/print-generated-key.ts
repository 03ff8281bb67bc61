/**
 * Shows a key generated at start to whoever started the gateway, once: on stderr, the terminal, so
 * that it stays out of stdout, where the request lines go and log pipelines keep them.
 */
export function printGeneratedKey(key: string): void {
  process.stderr.write(`API key (generated because none is configured; shown only now): ${key}\n`);
}
