import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

/** True when this process can create network namespaces (root). */
export const canUseNetworkNamespaces = process.getuid?.() === 0;

function run(command: string, args: readonly string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Fails with the Debian packages to install when `ip` or `nft` is missing. */
export function requireNetworkTools(): void {
  for (const [tool, pkg] of [
    ['ip', 'iproute2'],
    ['nft', 'nftables'],
  ] as const) {
    try {
      run(tool, ['-V']);
    } catch {
      throw new Error(`fault-matrix rows 11 and 13 need '${tool}' (Debian package ${pkg}): apt-get install -y iproute2 nftables`);
    }
  }
}

export interface NetworkNamespace {
  /** The namespace side's address, reachable from this process over a veth pair. */
  address: string;
  /** Runs `nft` inside the namespace. */
  nft(...args: string[]): void;
  /** Starts `node -e script` inside the namespace; resolves once it printed `ready`. */
  spawnNode(script: string): Promise<ChildProcess>;
  remove(): void;
}

/**
 * A network namespace joined to this one by a veth pair (fault-matrix.md "Network-level faults"):
 * nftables rules inside it drop SYNs or established traffic silently, which no stub can do. Names
 * and the /30 subnet derive from the pid, so concurrent runs do not collide.
 */
export function createNetworkNamespace(): NetworkNamespace {
  const tag = process.pid % 100_000;
  const name = `igw${tag}`;
  const hostSide = `igwa${tag}`;
  const nsSide = `igwb${tag}`;
  const octet = (process.pid % 60) * 4;
  const base = `10.213.${process.pid % 250}`;
  const hostAddress = `${base}.${octet + 1}`;
  const address = `${base}.${octet + 2}`;
  const children: ChildProcess[] = [];
  run('ip', ['netns', 'add', name]);
  try {
    run('ip', ['link', 'add', hostSide, 'type', 'veth', 'peer', 'name', nsSide]);
    run('ip', ['link', 'set', nsSide, 'netns', name]);
    run('ip', ['addr', 'add', `${hostAddress}/30`, 'dev', hostSide]);
    run('ip', ['link', 'set', hostSide, 'up']);
    run('ip', ['netns', 'exec', name, 'ip', 'addr', 'add', `${address}/30`, 'dev', nsSide]);
    run('ip', ['netns', 'exec', name, 'ip', 'link', 'set', nsSide, 'up']);
    run('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
  } catch (error) {
    run('ip', ['netns', 'del', name]);
    throw error;
  }
  return {
    address,
    nft: (...args) => {
      run('ip', ['netns', 'exec', name, 'nft', ...args]);
    },
    spawnNode(script) {
      const child = spawn('ip', ['netns', 'exec', name, process.execPath, '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      return new Promise((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`the namespace's node exited with ${code}`)));
        child.stdout?.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('ready')) resolve(child);
        });
      });
    },
    remove() {
      for (const child of children) child.kill('SIGKILL');
      try {
        run('ip', ['link', 'del', hostSide]);
      } catch {
        // Deleting the namespace below removes the pair too.
      }
      run('ip', ['netns', 'del', name]);
    },
  };
}
