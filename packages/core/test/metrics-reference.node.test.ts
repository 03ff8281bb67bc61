import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGatewayMetrics, defaultCatalogue } from '../src/index.js';
import {
  metricsReferenceEnd,
  metricsReferencePath,
  metricsReferenceStart,
  renderMetricsReference,
} from '../src/metrics/render-metrics-reference.js';
import { repositoryRoot } from './repository-root.js';

describe('the metrics table of docs/operations.md', () => {
  it('is the table the metrics definitions render today', () => {
    const page = readFileSync(join(repositoryRoot(), metricsReferencePath), 'utf8');
    const start = page.indexOf(metricsReferenceStart);
    const end = page.indexOf(metricsReferenceEnd);
    expect(start, `${metricsReferencePath} has no generated metrics table`).toBeGreaterThanOrEqual(
      0,
    );
    expect(
      page.slice(start, end + metricsReferenceEnd.length),
      `run \`pnpm --filter @infergate/core docs:config\` and commit ${metricsReferencePath}`,
    ).toBe(renderMetricsReference());
  });

  it('lists every metric a gateway with Redis exports, with the labels its series carry', () => {
    const metrics = createGatewayMetrics({
      catalogue: defaultCatalogue,
      operationIds: ['createChatCompletion'],
      keyNames: ['team-a'],
      redis: true,
    });
    metrics.observe({
      requestId: 'r',
      operationId: 'createChatCompletion',
      status: 200,
      model: 'alpha36-35b-a3b-instruct',
      keyName: 'team-a',
      inputTokens: 3,
      outputTokens: 5,
      firstByteMs: 1,
      durationMs: 2,
      streamed: false,
    });
    const table = renderMetricsReference();
    for (const [, name] of metrics.exposition().matchAll(/^# TYPE (\S+) /gm))
      expect(table).toContain(`| \`${name}\` |`);
    // The token counters carry the key as well as the model (the table once said model only).
    expect(table).toMatch(/\| `infergate_input_tokens_total` \| counter \| `model`, `key` \|/);
  });
});
