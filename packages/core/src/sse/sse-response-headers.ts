/**
 * Headers of every SSE response: no caching or transforming proxies (gzip would hold events back),
 * and `x-accel-buffering: no` so nginx-style proxies flush each event (fault matrix row 23).
 */
export function sseResponseHeaders(): Record<string, string> {
  return {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  };
}
