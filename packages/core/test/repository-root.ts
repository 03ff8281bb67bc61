import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: the nearest folder above this file holding pnpm-workspace.yaml. */
export function repositoryRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'pnpm-workspace.yaml'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('no pnpm-workspace.yaml above packages/core/test');
    folder = parent;
  }
  return folder;
}
