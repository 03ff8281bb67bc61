import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { LoggedGateway } from '@infergate/testkit';
import { startNodeGateway, testMetricsKey } from './start-node-gateway.js';

/** startNodeGateway with its request log lines kept (their fields) and its /metrics read with the metrics key. */
export async function startLoggedGateway(file: Record<string, unknown>): Promise<LoggedGateway> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        const fields = JSON.parse(line) as Record<string, unknown>;
        if (fields.msg === 'request') lines.push(fields);
      }
      done();
    },
  });
  const gateway = await startNodeGateway(file, { logger: pino({ level: 'info' }, sink) });
  return {
    ...gateway,
    requestLog: () => lines,
    metrics: async () => {
      const response = await fetch(`${gateway.baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${testMetricsKey}` },
      });
      return response.text();
    },
  };
}
