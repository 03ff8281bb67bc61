// `count` image edits with the same large body (JSON, or a multipart form) sent at once; each answer read whole.
import { performance } from 'node:perf_hooks';
import { undici } from './load-undici.mjs';

export async function sendImageEdits({
  origin,
  headers,
  body,
  count,
  contentType = 'application/json',
}) {
  const agent = new undici.Agent({
    connections: null,
    pipelining: 1,
    bodyTimeout: 120_000,
    headersTimeout: 120_000,
  });
  const statuses = {};
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async () => {
      let key;
      try {
        const response = await agent.request({
          origin,
          path: '/v1/images/edits',
          method: 'POST',
          headers: { ...headers, 'content-type': contentType },
          body,
        });
        const text = await response.body.text();
        if (response.statusCode === 200 && text.includes('b64_json')) key = '200';
        // An over-budget body is refused, not lost: 503 with Retry-After (docs/design.md, in-flight body budget).
        else if (response.statusCode === 503 && response.headers['retry-after'] !== undefined)
          key = '503 + Retry-After';
        else key = `status ${response.statusCode}`;
      } catch (error) {
        key = error.code ?? error.name ?? 'error';
      }
      statuses[key] = (statuses[key] ?? 0) + 1;
    }),
  );
  await agent.close();
  const refused = statuses['503 + Retry-After'] ?? 0;
  return {
    count,
    ok: statuses['200'] ?? 0,
    refused,
    lost: count - (statuses['200'] ?? 0) - refused,
    statuses,
    seconds: (performance.now() - started) / 1000,
  };
}
