// Writes docs/configuration.md from the config schema (run by `pnpm --filter @infergate/core docs:config`,
// after a build); test/config-reference.node.test.ts fails while the page on disk differs.
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import { configReferencePath, renderConfigReference } from '../dist/index.js';

const target = new URL(`../../../${configReferencePath}`, import.meta.url);
writeFileSync(target, renderConfigReference());
process.stdout.write(`wrote ${target.pathname}\n`);
