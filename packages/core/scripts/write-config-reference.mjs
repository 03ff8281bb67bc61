// Writes the generated reference pages (run by `pnpm --filter @infergate/core docs:config`, after a
// build): docs/configuration.md from the config schema, and the metrics table in docs/operations.md
// from the metrics' definitions. Tests in test/ fail while the pages on disk differ.
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import {
  configReferencePath,
  metricsReferenceEnd,
  metricsReferencePath,
  metricsReferenceStart,
  renderConfigReference,
  renderMetricsReference,
} from '../dist/index.js';

const root = new URL('../../../', import.meta.url);
const configPage = new URL(configReferencePath, root);
writeFileSync(configPage, renderConfigReference());
process.stdout.write(`wrote ${configPage.pathname}\n`);

const metricsPage = new URL(metricsReferencePath, root);
const page = readFileSync(metricsPage, 'utf8');
const start = page.indexOf(metricsReferenceStart);
const end = page.indexOf(metricsReferenceEnd);
if (start < 0 || end < start) throw new Error(`${metricsReferencePath} has no generated metrics table to replace`);
writeFileSync(metricsPage, page.slice(0, start) + renderMetricsReference() + page.slice(end + metricsReferenceEnd.length));
process.stdout.write(`wrote the metrics table of ${metricsPage.pathname}\n`);
