// The bench's child processes: started on a chosen core, remembered by PID, and all stopped at the end
// (also on failure and Ctrl-C). Nothing is ever stopped by name.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { sleep } from './stats.mjs';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';

const children = new Set();

function hasTaskset() {
  try {
    execFileSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Core layout: the proxy under test alone on core 0; this process (the load generator), wrk and the stub
 * on core 1. Without taskset or with one core, nothing is pinned and the table says so.
 */
export function planCores(cores) {
  if (cores < 2 || !hasTaskset())
    return {
      pinned: false,
      proxyCore: undefined,
      reason: cores < 2 ? 'one core' : 'taskset missing',
    };
  execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  return { pinned: true, proxyCore: 0, generatorCore: 1 };
}

/** Starts `node <args>` (on `core` when given); stdout and stderr go to `logFile`. */
export function startNode({ name, args, env = {}, core, logFile, stdoutPipe = false }) {
  const logFd = openSync(logFile, 'a');
  const command = core === undefined ? process.execPath : 'taskset';
  const commandArgs = core === undefined ? args : ['-c', String(core), process.execPath, ...args];
  const child = spawn(command, commandArgs, {
    env: { ...process.env, ...env },
    stdio: ['ignore', stdoutPipe ? 'pipe' : logFd, logFd],
  });
  closeSync(logFd);
  const entry = { name, child, pid: child.pid, exited: false };
  child.on('exit', () => {
    entry.exited = true;
  });
  children.add(entry);
  return entry;
}

/** The first line the process prints on stdout. */
export function firstLine(entry, timeoutMs = 15_000) {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`${entry.name} printed nothing in ${timeoutMs} ms`)),
      timeoutMs,
    );
    entry.child.stdout.setEncoding('utf8').on('data', (chunk) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        resolve(text.slice(0, end));
      }
    });
    entry.child.on('exit', (code) =>
      reject(new Error(`${entry.name} exited (${code}) before starting`)),
    );
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** SIGTERM, then SIGKILL for what is still running after `graceMs`. */
export async function stopProcess(entry, graceMs = 5_000) {
  if (!entry.exited) {
    const exited = new Promise((resolve) => entry.child.once('exit', resolve));
    try {
      process.kill(entry.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    await Promise.race([exited, sleep(graceMs)]);
    if (!entry.exited) {
      try {
        process.kill(entry.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      await Promise.race([exited, sleep(1_000)]);
    }
  }
  children.delete(entry);
}

export async function stopAll() {
  await Promise.all([...children].map((entry) => stopProcess(entry)));
}

/** Last resort on a synchronous exit: no waiting, every remembered PID gets SIGKILL. */
export function killAllNow() {
  for (const entry of children) {
    if (entry.exited) continue;
    try {
      process.kill(entry.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
