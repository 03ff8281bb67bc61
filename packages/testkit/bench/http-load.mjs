// undici load generators: closed loop (the fallback when wrk is missing) and fixed rate (the latency
// runs, since wrk2 is not in Debian). Every body is read to its end; any status but `expectStatus`,
// or a failed request, is an error. Latencies in ms.
import { performance } from 'node:perf_hooks';
import { undici } from './load-undici.mjs';
import { quantile } from './stats.mjs';
import { setTimeout } from 'node:timers';

async function oneRequest(pool, { path, method, headers, body }, expectStatus) {
  const response = await pool.request({ path, method, headers, body });
  // Streams are read to the end: the latency is the whole answer's.
  await response.body.dump({ limit: Number.POSITIVE_INFINITY });
  return response.statusCode === expectStatus;
}

/** `connections` workers, each sending the next request when the previous answer has been read. */
export async function closedLoop({ origin, request, connections, seconds, expectStatus = 200 }) {
  const pool = new undici.Pool(origin, { connections, pipelining: 1 });
  const latencies = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      try {
        if (!(await oneRequest(pool, request, expectStatus))) errors += 1;
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
  };
}

/**
 * Open loop at `rate` requests per second. Each latency runs from the request's scheduled time, not
 * from when it was sent, so a stalled proxy cannot hide its queue (no coordinated omission).
 */
export async function fixedRate({
  origin,
  request,
  rate,
  seconds,
  connections = 64,
  expectStatus = 200,
}) {
  const pool = new undici.Pool(origin, { connections, pipelining: 1 });
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const latencies = [];
  const pending = [];
  let errors = 0;
  const started = performance.now();
  const fire = (scheduled) => {
    pending.push(
      oneRequest(pool, request, expectStatus).then(
        (ok) => {
          if (!ok) errors += 1;
          latencies.push(performance.now() - scheduled);
        },
        () => {
          errors += 1;
          latencies.push(performance.now() - scheduled);
        },
      ),
    );
  };
  let sent = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - started) / interval) + 1);
      while (sent < due) {
        fire(started + sent * interval);
        sent += 1;
      }
      if (sent >= total) resolve();
      else setTimeout(tick, Math.max(0, started + sent * interval - performance.now()));
    };
    tick();
  });
  await Promise.all(pending);
  await pool.close();
  return {
    requests: latencies.length,
    rate,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
  };
}
