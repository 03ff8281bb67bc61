// fault-matrix row 18: `streams` concurrent long chat streams, each read to its end; a stream counts as
// complete only if it ended with `data: [DONE]` after a 200.
/* global AbortController */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { undici } from './load-undici.mjs';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';

export async function runLongStreams({ origin, path, headers, body, streams, deadlineMs, onTick }) {
  const agent = new undici.Agent({
    connections: null,
    pipelining: 1,
    bodyTimeout: 0,
    headersTimeout: 0,
  });
  const abort = new AbortController();
  // One signal ends every stream at the deadline: it has one listener per stream.
  setMaxListeners(0, abort.signal);
  const errors = {};
  const countError = (code) => {
    errors[code] = (errors[code] ?? 0) + 1;
  };
  let done = 0;
  let open = 0;
  let peakOpen = 0;
  const started = performance.now();
  const one = async () => {
    try {
      const response = await agent.request({
        origin,
        path,
        method: 'POST',
        headers,
        body,
        signal: abort.signal,
      });
      open += 1;
      peakOpen = Math.max(peakOpen, open);
      let tail = '';
      let sawDone = false;
      try {
        for await (const chunk of response.body) {
          // `[DONE]` may straddle two chunks: keep the end of the previous one.
          const text = tail + chunk.toString('latin1');
          if (text.includes('data: [DONE]')) sawDone = true;
          tail = text.slice(-16);
        }
      } finally {
        open -= 1;
      }
      if (response.statusCode !== 200) countError(`status ${response.statusCode}`);
      else if (!sawDone) countError('ended without [DONE]');
      else done += 1;
    } catch (error) {
      countError(error.code ?? error.name ?? 'error');
    }
  };
  const ticker = setInterval(() => onTick?.({ open, done }), 1000);
  const killer = setTimeout(() => abort.abort(), deadlineMs);
  await Promise.all(Array.from({ length: streams }, one));
  clearInterval(ticker);
  clearTimeout(killer);
  await agent.close();
  return {
    streams,
    completed: done,
    peakOpen,
    errors,
    seconds: (performance.now() - started) / 1000,
  };
}
