import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { FaultMatrixTarget } from '@infergate/testkit';
import { startNodeGateway } from './start-node-gateway.js';

/** The node-server as the fault matrix starts it; `startWithLogs` runs it at trace level into memory. */
export const nodeFaultMatrixTarget: FaultMatrixTarget = {
  name: 'node-server',
  start: (file) => startNodeGateway(file),
  async startWithLogs(file) {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const logger = pino({ level: 'trace' }, sink);
    const gateway = await startNodeGateway(file, { logger });
    return { gateway, logs: () => lines.join('') };
  },
};
