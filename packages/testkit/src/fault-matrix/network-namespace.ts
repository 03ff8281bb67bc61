import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

function run(command: string, args: readonly string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The first line a failed command wrote on stderr, or its message. */
function firstErrorLine(error: unknown): string {
  const { stderr, message } = error as { stderr?: string; message?: string };
  return (stderr?.trim() || message || String(error)).split('\n')[0] ?? '';
}

let checked: { reason: string | undefined } | undefined;

/**
 * Why this process cannot run the rows that need a network namespace, or undefined when it can: Linux,
 * root, `ip` (iproute2) and `nft` (nftables), and a namespace the kernel actually grants (a container
 * may refuse one even to root). Found out once per process, by creating and deleting a namespace.
 */
export function networkNamespaceUnavailable(): string | undefined {
  checked ??= { reason: findUnavailability() };
  return checked.reason;
}

function findUnavailability(): string | undefined {
  if (process.platform !== 'linux')
    return `network namespaces are Linux-only (this is ${process.platform})`;
  if (process.getuid?.() !== 0)
    return `creating a network namespace needs root (uid ${process.getuid?.()})`;
  const missing = [
    ['ip', 'iproute2'],
    ['nft', 'nftables'],
  ].filter(([tool]) => {
    try {
      run(tool as string, ['-V']);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0)
    return `${missing.map(([tool, pkg]) => `'${tool}' (Debian package ${pkg})`).join(' and ')} not installed: apt-get install -y iproute2 nftables`;
  const probe = `igwprobe${process.pid % 100_000}`;
  try {
    run('ip', ['netns', 'add', probe]);
  } catch (error) {
    return `this machine refuses a network namespace (ip netns add: ${firstErrorLine(error)})`;
  }
  try {
    run('ip', ['netns', 'del', probe]);
  } catch {
    // A leftover probe harms nothing: the rows create namespaces of their own names.
  }
  return undefined;
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
 * A network namespace joined to this one by a veth pair (network-level faults):
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
      const child = spawn('ip', ['netns', 'exec', name, process.execPath, '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
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
