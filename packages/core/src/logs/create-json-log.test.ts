import { describe, expect, it } from 'vitest';
import { createJsonLog } from './create-json-log.js';
import { requestLogLine } from './request-log-line.js';

const line = (status: number) =>
  requestLogLine({ requestId: 'req-1', method: 'GET', route: '/healthz', status, durationMs: 1 });

describe('createJsonLog', () => {
  it("writes pino's shape: numeric level, time, service, the fields, then msg; undefined fields left out", () => {
    const written: string[] = [];
    const log = createJsonLog({
      write: (text) => written.push(text),
      now: () => 1_700_000_000_000,
    });
    log(line(200));
    expect(written).toEqual([
      '{"level":30,"time":1700000000000,"service":"infergate","requestId":"req-1","method":"GET","route":"/healthz","status":200,"durationMs":1,"msg":"request"}\n',
    ]);
  });

  it.each([
    ['warn', [200, 404, 500], ['warn', 'error']],
    ['error', [200, 404, 500], ['error']],
    ['silent', [200, 404, 500], []],
    ['debug', [200], ['info']],
    [undefined, [200, 404], ['info', 'warn']],
    ['nonsense', [200], ['info']],
  ])('at LOG_LEVEL=%s writes only the lines at or over it', (level, statuses, expected) => {
    const levels: string[] = [];
    const log = createJsonLog({ level, write: (_text, lineLevel) => levels.push(lineLevel) });
    for (const status of statuses) log(line(status));
    expect(levels).toEqual(expected);
  });
});
