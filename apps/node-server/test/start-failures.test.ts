import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMainToExit, type Outcome } from './run-built-main.js';

// A configured key: nothing is generated, so a failed start prints nothing but its one line.
const aKey = { INFERGATE_API_KEYS: 'start-failure-key' };

const directories: string[] = [];

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function writeConfig(file: object): string {
  const directory = mkdtempSync(join(tmpdir(), 'infergate-start-failure-'));
  directories.push(directory);
  const path = join(directory, 'gateway.json');
  writeFileSync(path, JSON.stringify(file));
  return path;
}

/** Exit code 1 and exactly one line on stderr, with no stack trace anywhere. */
function expectOneLineFailure(outcome: Outcome): string {
  expect(outcome.code, `stdout: ${outcome.stdout}\nstderr: ${outcome.stderr}`).toBe(1);
  const lines = outcome.stderr.split('\n').filter((line) => line !== '');
  expect(lines, outcome.stderr).toHaveLength(1);
  expect(`${outcome.stdout}${outcome.stderr}`).not.toMatch(/^\s+at /m);
  expect(outcome.stdout).not.toContain('listening on');
  return lines[0] as string;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

describe('a start that cannot go on explains itself in one line and exits 1', () => {
  let occupier: Server;
  let busyPort: number;

  beforeAll(async () => {
    occupier = createServer();
    busyPort = await listen(occupier);
  });

  afterAll(async () => {
    await new Promise((resolve) => occupier.close(resolve));
  });

  it('a relative INFERGATE_CONFIG that is not there: names the folder it was looked for in, exit 2', async () => {
    const outcome = await runMainToExit({
      ...aKey,
      PORT: '0',
      INFERGATE_CONFIG: 'no-such-gateway.yaml',
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.trim().split('\n')).toEqual([
      `infergate: invalid configuration: INFERGATE_CONFIG: no-such-gateway.yaml (${join(process.cwd(), 'no-such-gateway.yaml')}): cannot be read (no such file).`,
    ]);
  });

  it('port already in use: names the address and PORT', async () => {
    const line = expectOneLineFailure(await runMainToExit({ ...aKey, PORT: String(busyPort) }));
    expect(line).toBe(
      `infergate: cannot listen on 127.0.0.1:${busyPort}: the address is already in use by another process; stop that process or choose another port with PORT (or --port, or server.port in the configuration file)`,
    );
  });

  it('metrics port already in use: names the address and metrics.port', async () => {
    const line = expectOneLineFailure(
      await runMainToExit({
        ...aKey,
        PORT: '0',
        INFERGATE_CONFIG: writeConfig({ metrics: { port: busyPort } }),
      }),
    );
    expect(line).toContain(`cannot listen on 127.0.0.1:${busyPort}: the address is already in use`);
    expect(line).toContain('metrics.port in the configuration file');
  });

  it('permission denied on a privileged port: names the address, the reason and PORT', async () => {
    // Ports below this need CAP_NET_BIND_SERVICE (Linux; 1024 unless lowered).
    const unprivilegedFrom = Number(
      readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8').trim(),
    );
    if (unprivilegedFrom <= 80)
      throw new Error(
        `net.ipv4.ip_unprivileged_port_start is ${unprivilegedFrom}: any user may bind port 80 here, so this test cannot provoke a refusal`,
      );
    // As root, the same process without the capability (setpriv, util-linux): root keeps its uid and
    // can read the checkout, but the kernel refuses the bind as it would for any other user.
    const prefix =
      process.getuid?.() === 0
        ? ['setpriv', '--bounding-set', '-net_bind_service', '--inh-caps', '-net_bind_service']
        : [];
    const line = expectOneLineFailure(await runMainToExit({ ...aKey, PORT: '80' }, prefix));
    expect(line).toBe(
      'infergate: cannot listen on 127.0.0.1:80: permission denied (ports below 1024 need root or the CAP_NET_BIND_SERVICE capability); choose a port from 1024 up with PORT (or --port, or server.port in the configuration file)',
    );
  });

  it("an address that is not this machine's: names it and HOST", async () => {
    // TEST-NET-1 (RFC 5737): never assigned to a local interface.
    const line = expectOneLineFailure(
      await runMainToExit({ ...aKey, HOST: '192.0.2.1', PORT: '0' }),
    );
    expect(line).toMatch(
      /^infergate: cannot listen on 192\.0\.2\.1(:0)?: that address is not one of this machine's; set HOST/,
    );
  });
});
