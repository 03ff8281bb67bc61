// Writes the generated reference pages (run by `pnpm --filter @infergate/core docs:config`):
// docs/configuration.md from the config schema, and the metrics table in docs/operations.md from the
// metrics' definitions. Tests in test/ fail while the pages on disk differ. The renderers are not part
// of core's public API, so they are bundled from the source here rather than read from dist/.
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsup';

const source = (path) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));
const outDir = fileURLToPath(new URL('../node_modules/.cache/reference-pages/', import.meta.url));
await build({
  config: false,
  entry: {
    config: source('config/render-config-reference.ts'),
    metrics: source('metrics/render-metrics-reference.ts'),
  },
  outDir,
  format: ['esm'],
  target: 'es2022',
  clean: true,
  silent: true,
});
const { configReferencePath, renderConfigReference } = await import(
  pathToFileURL(`${outDir}config.js`).href
);
const { metricsReferenceEnd, metricsReferencePath, metricsReferenceStart, renderMetricsReference } =
  await import(pathToFileURL(`${outDir}metrics.js`).href);

const root = new URL('../../../', import.meta.url);
const configPage = new URL(configReferencePath, root);
writeFileSync(configPage, renderConfigReference());
process.stdout.write(`wrote ${configPage.pathname}\n`);

const metricsPage = new URL(metricsReferencePath, root);
const page = readFileSync(metricsPage, 'utf8');
const start = page.indexOf(metricsReferenceStart);
const end = page.indexOf(metricsReferenceEnd);
if (start < 0 || end < start)
  throw new Error(`${metricsReferencePath} has no generated metrics table to replace`);
writeFileSync(
  metricsPage,
  page.slice(0, start) + renderMetricsReference() + page.slice(end + metricsReferenceEnd.length),
);
process.stdout.write(`wrote the metrics table of ${metricsPage.pathname}\n`);
