import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import { createGatewayMetrics } from './create-gateway-metrics.js';

/** Where the generated table lives, between these two lines, and how to regenerate it. */
export const metricsReferencePath = 'docs/operations.md';
export const metricsReferenceStart =
  '<!-- metrics table: generated from packages/core/src/metrics/create-gateway-metrics.ts by `pnpm --filter @infergate/core docs:config` -->';
export const metricsReferenceEnd = '<!-- end of the generated metrics table -->';

const escapeCell = (text: string): string => text.replace(/\|/g, '\\|');

/**
 * The table of every metric the gateway exports (Redis's gauge included), from the same definitions
 * that render /metrics: name, type, labels and the HELP text. Wrapped in prettier-ignore so that the
 * page keeps exactly what is generated.
 */
export function renderMetricsReference(): string {
  const metrics = createGatewayMetrics({
    catalogue: defaultCatalogue,
    operationIds: [],
    redis: true,
  }).describe();
  const rows = metrics.map(
    ({ name, type, labelNames, help }) =>
      `| \`${name}\` | ${type} | ${labelNames.map((label) => `\`${label}\``).join(', ')} | ${escapeCell(help)} |`,
  );
  return [
    metricsReferenceStart,
    '<!-- prettier-ignore-start -->',
    '| metric | type | labels | what it counts |',
    '|---|---|---|---|',
    ...rows,
    '<!-- prettier-ignore-end -->',
    metricsReferenceEnd,
  ].join('\n');
}
