import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, expect } from 'vitest';
import { startLocalBackendServer } from '@infergate/local-backend/node';
import {
  recordFigure,
  runGatewayContract,
  secretForms,
  upstreamsServingEverything,
} from '@infergate/testkit';
import { startNodeGateway } from './start-node-gateway.js';

// fault-matrix row 7 over the whole contract suite: every endpoint, stream, error and abort it runs,
// with a canary client key and a canary upstream key, the gateway logging at its most verbose level.
const canaryClientKey = 'ig-canary-suite-9d2e6b1f4a8c3e7d5b0f';
const canaryUpstreamKey = 'sk-upstream-suite-canary-3c8e1a7f5d2b9e4c';
const lines: string[] = [];

function traceLogger() {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return pino({ level: 'trace' }, sink);
}

async function startCanaryGateway(upstreamUrl: string) {
  const upstreams = upstreamsServingEverything(upstreamUrl).map((entry) => ({
    ...entry,
    api_key: canaryUpstreamKey,
  }));
  const gateway = await startNodeGateway(
    { upstreams, keys: [canaryClientKey] },
    { logger: traceLogger() },
  );
  return { ...gateway, apiKey: canaryClientKey };
}

runGatewayContract({
  name: 'node-server with canary keys, logging at trace level',
  async start(upstreamUrl) {
    if (upstreamUrl) return startCanaryGateway(upstreamUrl);
    const backend = await startLocalBackendServer({ host: '127.0.0.1', port: 0 });
    const gateway = await startCanaryGateway(backend.url);
    return {
      ...gateway,
      async close() {
        await gateway.close();
        await backend.close();
      },
    };
  },
});

afterAll(() => {
  const logs = lines.join('');
  const forms = [...secretForms(canaryClientKey), ...secretForms(canaryUpstreamKey)];
  const found = forms.filter((form) => logs.includes(form));
  recordFigure(
    7,
    'node-server (whole contract suite)',
    `${lines.length} log lines at trace level searched for ${forms.length} forms of the 2 canary keys: ${found.length} matches`,
    '0 matches',
  );
  expect(lines.length).toBeGreaterThan(100);
  expect(found).toEqual([]);
});
