import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContractClient,
  recordFigure,
  startScriptedUpstream,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

const model = 'alpha36-35b-a3b-instruct';
const messages = [{ role: 'user', content: 'Go.' }];

// Row 17's node-server part: the active count returns to 0 and every abort is logged as 499.
describe('fault matrix row 17, node-server specifics', () => {
  let upstream: ScriptedUpstream;
  let gateway: NodeGateway;
  const lines: string[] = [];

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    gateway = await startNodeGateway(
      {
        upstreams: upstreamsServingEverything(upstream.url),
        limits: { max_concurrent_requests: 100 },
      },
      { logger: pino({ level: 'info' }, sink) },
    );
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('aborted streams and calls give their admission slots back and are logged as 499', async () => {
    const client = new ContractClient(gateway);
    const gate = gateway.server.gateway.admission;
    // 10 s per answer: every request is still running when the aborts come, however slow the machine.
    upstream.setDefaultScript('ok:200:50');
    const controllers = Array.from({ length: 20 }, () => new AbortController());
    const pending = controllers.map((controller, index) =>
      client
        .post(
          '/v1/chat/completions',
          { model, messages, stream: index % 2 === 0 },
          { signal: controller.signal },
        )
        .then((response) => response.text())
        .catch(() => 'aborted'),
    );
    // Abort once all 20 are admitted and running; a loaded machine may take a while to get there.
    const admittedBy = Date.now() + 8_000;
    while (gate.inUse < 20 && Date.now() < admittedBy)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const activeDuring = gate.inUse;
    for (const controller of controllers) controller.abort();
    await Promise.all(pending);
    const deadline = Date.now() + 2_000;
    while (
      (gate.inUse > 0 || lines.filter((line) => line.includes('"status":499')).length < 20) &&
      Date.now() < deadline
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    const logged499 = lines.filter((line) => line.includes('"status":499')).length;
    recordFigure(
      17,
      'node-server',
      `20 aborted (10 streams, 10 non-streaming): active ${activeDuring} -> ${gate.inUse}; ${logged499} lines logged with status 499`,
      'active gauge -> 0; logged 499',
    );
    expect(activeDuring).toBe(20);
    expect(gate.inUse).toBe(0);
    expect(logged499).toBe(20);
  }, 30_000);
});
