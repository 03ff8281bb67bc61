import { afterAll, beforeAll } from 'vitest';
import { startLocalBackendServer } from '../src/node.js';
import type { LocalBackendOptions } from '../src/index.js';

/** Starts the node listener on 127.0.0.1 port 0 for the enclosing suite; `url()` is valid inside tests. */
export function useTestServer(options: LocalBackendOptions = {}): { url: () => string } {
  let server: Awaited<ReturnType<typeof startLocalBackendServer>> | undefined;
  beforeAll(async () => {
    server = await startLocalBackendServer({ ...options, host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    url: () => {
      if (server === undefined) throw new Error('server not started');
      return server.url;
    },
  };
}

export async function postJson<T = unknown>(
  url: string,
  body: unknown,
): Promise<{ status: number; json: T; response: Response }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let json: T;
  try {
    json = JSON.parse(text) as T;
  } catch {
    json = text as T;
  }
  return { status: response.status, json, response };
}
