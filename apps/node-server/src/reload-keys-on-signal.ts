import { createKeyStore, planKeyReload, type Gateway } from '@infergate/core';
import { nodeSha256 } from '@infergate/upstream/node';
import type { FastifyBaseLogger } from 'fastify';
import { readConfigFile } from './read-config-file.js';

export interface KeyReloadOptions {
  gateway: Gateway;
  logger: FastifyBaseLogger;
  env: Readonly<Record<string, string | undefined>>;
  /** The file's parsed value at start: sections other than `keys` are compared with it. */
  startFile: unknown;
}

/**
 * SIGHUP reads the configuration file (INFERGATE_CONFIG) again and applies its keys to new requests,
 * so that keys and their limits change without a restart. The file is validated whole first: a bad
 * file changes nothing and one error line names the field. Signals that arrive during a reload are
 * folded into one more reload after it, so the last file written is the one applied.
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

async function reloadKeys({ gateway, logger, env, startFile }: KeyReloadOptions): Promise<void> {
  const file = env.INFERGATE_CONFIG;
  if (!file) {
    logger.warn(
      'SIGHUP: no configuration file to reload (INFERGATE_CONFIG or --config); nothing changed',
    );
    return;
  }
  try {
    const plan = planKeyReload(startFile, await readConfigFile(file), env);
    gateway.replaceKeys(createKeyStore(plan.keyEntries, { sha256: nodeSha256 }), plan.keyEntries);
    const facts = { file, keys: plan.keyEntries.length, needRestart: plan.needRestart };
    if (plan.needRestart.length === 0) logger.info(facts, 'configuration reloaded: keys applied');
    else
      logger.warn(
        facts,
        `configuration reloaded: keys applied; changes to ${plan.needRestart.join(', ')} apply at the next restart`,
      );
  } catch (error) {
    logger.error(
      { file, reason: (error as Error).message },
      'configuration not reloaded: the running configuration stays',
    );
  }
}
