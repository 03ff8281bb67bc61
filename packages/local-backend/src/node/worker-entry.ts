import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface WorkerEntry {
  url: URL;
  execArgv: string[];
}

/**
 * The script a local backend worker runs: the built `local-backend-worker.js` beside this module, or,
 * when this module runs from its TypeScript source (the tests, which need no build), the source itself
 * through tsx (a development dependency), with workspace packages taken from source as the tests take them.
 */
export function workerEntry(): WorkerEntry {
  const built = new URL('./local-backend-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return { url: built, execArgv: [] };
  return {
    url: new URL('./run-source-worker.mjs', import.meta.url),
    execArgv: ['--conditions=@infergate/source'],
  };
}
