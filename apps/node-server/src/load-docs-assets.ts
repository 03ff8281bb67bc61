import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { DocsAssets } from '@infergate/core';

/**
 * The reference page's script, read once at start from the installed @scalar/api-reference package:
 * the gateway serves it itself, so the page at /docs loads nothing from another host.
 */
export function loadDocsAssets(): DocsAssets {
  const path = createRequire(import.meta.url).resolve(
    '@scalar/api-reference/browser/standalone.js',
  );
  return { referenceScript: readFileSync(path, 'utf8') };
}
