import { ConfigError } from './config-file-schema.js';
import { resolveGatewayConfig, type KeyEntry } from './resolve-gateway-config.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface KeyReloadPlan {
  /** The keys new requests are checked against from now on (the file's and the environment's). */
  keyEntries: readonly KeyEntry[];
  /** Top-level sections of the file that differ from the running one and apply only at a restart. */
  needRestart: string[];
}

/**
 * What reloading the configuration file changes for a running gateway: its keys (with their names,
 * models, limits and operator flag), and nothing else, since upstream pools, ports and the catalogue
 * are built once at start. The new file is validated whole, exactly as at start, so a reload never
 * applies a file a start would refuse: a ConfigError names the field. A file whose keys resolve to
 * none is refused too: at start a key would be generated, and a reload must not leave no key at all.
 */
export function planKeyReload(runningFile: unknown, nextFile: unknown, env: Env): KeyReloadPlan {
  const { keyEntries } = resolveGatewayConfig(nextFile, env);
  if (keyEntries.length === 0)
    throw new ConfigError(
      'keys',
      'the file and INFERGATE_API_KEYS configure no key; the running keys stay until a restart',
    );
  return { keyEntries, needRestart: changedSections(runningFile, nextFile) };
}

function changedSections(before: unknown, after: unknown): string[] {
  const sections = (file: unknown): Record<string, unknown> =>
    typeof file === 'object' && file !== null ? (file as Record<string, unknown>) : {};
  const was = sections(before);
  const now = sections(after);
  const names = new Set([...Object.keys(was), ...Object.keys(now)]);
  names.delete('keys');
  return [...names]
    .filter((name) => JSON.stringify(was[name]) !== JSON.stringify(now[name]))
    .sort();
}
