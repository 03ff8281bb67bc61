import { Writable } from 'node:stream';
import { resolveGatewayConfig, type MetricsSink } from '@infergate/core';
import { pino } from 'pino';
import { upstreamsServingEverything } from '@infergate/testkit';
import { buildServer, type GatewayServer } from '../src/build-server.js';

export interface LimitedReplica {
  baseUrl: string;
  server: GatewayServer;
  /** Requests this replica decided locally because Redis did not answer (metrics.limiterFallback). */
  fallbacks(): number;
  /** Warnings and notes the Redis store logged. */
  logs: string[];
}

export interface ReplicaSetOptions {
  upstreamUrl: string;
  keys: readonly unknown[];
  /** The config file's `redis` section; absent: in-memory limits. */
  redis?: Record<string, unknown>;
  /** The config file's `prices` section, for budgets. */
  prices?: Record<string, unknown>;
  count: number;
}

/** `count` node-server replicas in this process, each with its own Redis connection, on 127.0.0.1:0. */
export async function startLimitedReplicas(options: ReplicaSetOptions): Promise<LimitedReplica[]> {
  const replicas: LimitedReplica[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const config = resolveGatewayConfig(
      {
        upstreams: upstreamsServingEverything(options.upstreamUrl),
        keys: options.keys,
        timeouts: { shutdown_grace_ms: 500 },
        ...(options.redis === undefined ? {} : { redis: options.redis }),
        ...(options.prices === undefined ? {} : { prices: options.prices }),
      },
      {},
    );
    let fallbacks = 0;
    const metrics: MetricsSink = {
      record: () => undefined,
      limiterFallback: () => {
        fallbacks += 1;
      },
    };
    const logs: string[] = [];
    const lines = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const message = (JSON.parse(chunk.toString('utf8')) as { msg?: string }).msg ?? '';
        if (message.startsWith('key limits')) logs.push(message);
        done();
      },
    });
    const server = await buildServer(config, { metrics, logger: pino({ level: 'info' }, lines) });
    const baseUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
    replicas.push({ baseUrl, server, fallbacks: () => fallbacks, logs });
  }
  return replicas;
}
