// What a deployment behind nginx serves: non-streaming chat through Debian's nginx (the repository's
// deploy/nginx/infergate-locations.conf) to one and to two replicas of the built CLI, and straight to
// one replica, in front of one stub; rounds interleave the three so that load drift spreads over all.
// Prints req/s and CPU per request of the gateway and of nginx, from /proc. All of it shares this
// machine's cores, so the two-replica figure is what the machine has left, not what a second host would
// add.
// `node bench/deployment-nginx.mjs [requests per round] [rounds] [concurrency]`
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, URL } from 'node:url';
import {
  benchModel as model,
  createChatLoad,
  listen,
  median,
  startChatStub,
} from './chat-bench-load.mjs';

const [requestsPerRound = 3000, rounds = 3, concurrency = 32] = process.argv.slice(2).map(Number);
const apiKey = 'bench-key-0123456789abcdef';
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const locations = fileURLToPath(
  new URL('../../../deploy/nginx/infergate-locations.conf', import.meta.url),
);
const clockTicks = 100;

async function freePort() {
  const server = createServer();
  const port = Number(new URL(await listen(server)).port);
  server.close();
  await once(server, 'close');
  return port;
}

/** User + system CPU of a process so far, in microseconds (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks;
}

const { url: upstreamUrl, server: upstream } = await startChatStub();

const workDir = mkdtempSync(join(tmpdir(), 'infergate-bench-deploy-'));
chmodSync(workDir, 0o755);
const configPath = join(workDir, 'config.json');
writeFileSync(
  configPath,
  JSON.stringify({
    upstreams: [
      { name: 'stub', url: upstreamUrl, protocol: 'openai', models: { [model]: 'served' } },
    ],
    timeouts: { drain_delay_ms: 0 },
  }),
);

async function startReplica() {
  const port = await freePort();
  const child = spawn(process.execPath, [main], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      INFERGATE_CONFIG: configPath,
      INFERGATE_API_KEYS: apiKey,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
  });
  let output = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('listening on')) resolve();
    });
    child.once('exit', () => reject(new Error(`replica exited: ${output}`)));
  });
  return { child, port };
}

async function startNginx(name, ports) {
  const port = await freePort();
  const folder = mkdtempSync(join(workDir, `nginx-${name}-`));
  // The worker runs as nobody and keeps request bodies here.
  chmodSync(folder, 0o755);
  writeFileSync(
    join(folder, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${folder}/client-body;
    proxy_temp_path ${folder}/proxy;
    fastcgi_temp_path ${folder}/fastcgi;
    uwsgi_temp_path ${folder}/uwsgi;
    scgi_temp_path ${folder}/scgi;
    upstream infergate {
${ports.map((upstreamPort) => `        server 127.0.0.1:${upstreamPort} max_fails=1 fail_timeout=2s;`).join('\n')}
        keepalive 64;
    }
    server {
        listen 127.0.0.1:${port};
        include ${locations};
    }
}
`,
  );
  const child = spawn(
    'nginx',
    ['-p', folder, '-c', join(folder, 'nginx.conf'), '-e', join(folder, 'error.log')],
    { stdio: 'inherit' },
  );
  await once(child, 'spawn');
  // The worker is the master's only child; it does the proxying.
  let workerPid;
  for (let attempt = 0; workerPid === undefined; attempt += 1) {
    if (attempt > 200) throw new Error(`nginx ${name} did not start`);
    await sleep(50);
    try {
      workerPid =
        Number(
          readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
            .trim()
            .split(' ')[0],
        ) || undefined;
    } catch {
      workerPid = undefined;
    }
  }
  return { child, port, workerPid };
}

const { load, close: closeLoad } = createChatLoad(apiKey, concurrency);

const replicas = [await startReplica(), await startReplica()];
const nginxOne = await startNginx('one', [replicas[0].port]);
const nginxTwo = await startNginx(
  'two',
  replicas.map((replica) => replica.port),
);
const setups = [
  {
    name: 'direct, 1 replica     ',
    address: `http://127.0.0.1:${replicas[0].port}`,
    gateways: [replicas[0].child.pid],
    nginx: undefined,
    results: [],
  },
  {
    name: 'nginx -> 1 replica    ',
    address: `http://127.0.0.1:${nginxOne.port}`,
    gateways: [replicas[0].child.pid],
    nginx: nginxOne.workerPid,
    results: [],
  },
  {
    name: 'nginx -> 2 replicas   ',
    address: `http://127.0.0.1:${nginxTwo.port}`,
    gateways: replicas.map((replica) => replica.child.pid),
    nginx: nginxTwo.workerPid,
    results: [],
  },
];

// Warm-up: JIT, connection pools.
for (const setup of setups) await load(setup.address, 1000);

for (let round = 0; round < rounds; round += 1) {
  for (const setup of [
    ...setups.slice(round % setups.length),
    ...setups.slice(0, round % setups.length),
  ]) {
    const gatewayBefore = setup.gateways.reduce((sum, pid) => sum + cpuMicros(pid), 0);
    const nginxBefore = setup.nginx === undefined ? 0 : cpuMicros(setup.nginx);
    const started = process.hrtime.bigint();
    await load(setup.address, requestsPerRound);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const gatewayCpu = setup.gateways.reduce((sum, pid) => sum + cpuMicros(pid), 0) - gatewayBefore;
    const nginxCpu = setup.nginx === undefined ? 0 : cpuMicros(setup.nginx) - nginxBefore;
    setup.results.push({
      rps: requestsPerRound / seconds,
      gatewayCpu: gatewayCpu / requestsPerRound,
      nginxCpu: nginxCpu / requestsPerRound,
    });
  }
}

const [load1] = readFileSync('/proc/loadavg', 'utf8').split(' ');
process.stdout.write(
  `deployment behind nginx: ${rounds} rounds x ${requestsPerRound} non-streaming chat requests, concurrency ${concurrency}, Node ${process.version}, ${cpus().length} cores, load average ${load1} at the end; medians (CPU from /proc, 10 ms ticks)\n`,
);
for (const setup of setups) {
  const rps = median(setup.results.map((result) => result.rps));
  const gatewayCpu = median(setup.results.map((result) => result.gatewayCpu));
  const nginxCpu = median(setup.results.map((result) => result.nginxCpu));
  const perCore = 1e6 / gatewayCpu;
  process.stdout.write(
    `  ${setup.name} ${rps.toFixed(0).padStart(6)} req/s  gateway ${gatewayCpu.toFixed(0).padStart(4)} us CPU/request (${perCore.toFixed(0)} req/s per gateway core)  nginx ${nginxCpu.toFixed(0).padStart(4)} us CPU/request\n`,
  );
}

for (const child of [nginxOne.child, nginxTwo.child]) {
  const exited = once(child, 'exit');
  child.kill('SIGQUIT');
  await exited;
}
for (const { child } of replicas) {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
closeLoad();
upstream.close();
rmSync(workDir, { recursive: true, force: true });
