import { createKeyStore, planKeyReload, type Gateway } from '@infergate/core';
import { nodeSha256 } from '@infergate/upstream/node';
import { readConfigFile } from './read-config-file.js';

/** Where a reload says what it did: pino's logger fits, and so does a line writer of the same shape. */
export interface ReloadLog {
  info(facts: Record<string, unknown>, message: string): void;
  warn(facts: Record<string, unknown>, message: string): void;
  error(facts: Record<string, unknown>, message: string): void;
}

// pino's numbers and names, so that a reload's line reads like the request lines beside it.
const levels = { info: 30, warn: 40, error: 50 } as const;
const thresholds: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

/**
 * A ReloadLog for an entry point without pino (the edge app on Node): one JSON line per message in
 * the request lines' shape, under `LOG_LEVEL` (info by default) like them.
 */
export function jsonLineReloadLog(
  level: string | undefined,
  write: (text: string) => void,
): ReloadLog {
  const threshold = thresholds[level?.trim().toLowerCase() ?? 'info'] ?? levels.info;
  const line =
    (value: number) =>
    (facts: Record<string, unknown>, message: string): void => {
      if (value < threshold) return;
      write(
        `${JSON.stringify({ level: value, time: Date.now(), service: 'infergate', ...facts, msg: message })}\n`,
      );
    };
  return { info: line(levels.info), warn: line(levels.warn), error: line(levels.error) };
}

export interface KeyReloadOptions {
  gateway: Pick<Gateway, 'replaceKeys'>;
  log: ReloadLog;
  env: Readonly<Record<string, unknown>>;
  /** The file's parsed value at start: sections other than `keys` are compared with it. */
  startFile: unknown;
}

/**
 * SIGHUP reads the configuration file (INFERGATE_CONFIG) again and applies its keys to new requests,
 * so that keys and their limits change without a restart; both Node entry points install it. The file
 * is validated whole first: a bad file changes nothing and one error line names the field. Signals
 * that arrive during a reload are folded into one more reload after it, so the last file written is
 * the one applied.
 */
export function reloadKeysOnSignal(options: KeyReloadOptions): void {
  let running: Promise<void> | undefined;
  let again = false;
  const reloadLoop = async (): Promise<void> => {
    do {
      again = false;
      await reloadKeys(options);
    } while (again);
    running = undefined;
  };
  process.on('SIGHUP', () => {
    if (running !== undefined) again = true;
    else running = reloadLoop();
  });
}

async function reloadKeys({ gateway, log, env, startFile }: KeyReloadOptions): Promise<void> {
  const file = env.INFERGATE_CONFIG;
  if (typeof file !== 'string' || file === '') {
    log.warn(
      {},
      'SIGHUP: no configuration file to reload (INFERGATE_CONFIG or --config); nothing changed',
    );
    return;
  }
  try {
    // The edge app's bindings may hold values other than strings; only strings name anything.
    const strings = Object.fromEntries(
      Object.entries(env).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
    const plan = planKeyReload(startFile, await readConfigFile(file), strings);
    gateway.replaceKeys(createKeyStore(plan.keyEntries, { sha256: nodeSha256 }), plan.keyEntries);
    const facts = { file, keys: plan.keyEntries.length, needRestart: plan.needRestart };
    if (plan.needRestart.length === 0) log.info(facts, 'configuration reloaded: keys applied');
    else
      log.warn(
        facts,
        `configuration reloaded: keys applied; changes to ${plan.needRestart.join(', ')} apply at the next restart`,
      );
  } catch (error) {
    log.error(
      { file, reason: (error as Error).message },
      'configuration not reloaded: the running configuration stays',
    );
  }
}
