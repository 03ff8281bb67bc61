import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveGatewayConfig } from '../src/index.js';
import type { JsonSchema } from '../src/schemas/json-schema.js';
import {
  configFileJsonSchema,
  configReferenceCommand,
  configReferencePath,
  renderConfigReference,
} from '../src/config/render-config-reference.js';
import { configReferenceRows } from '../src/config/config-reference-rows.js';
import { repositoryRoot } from './repository-root.js';

const sections = Object.entries(
  (configFileJsonSchema().properties ?? {}) as Record<string, JsonSchema>,
);

describe('the configuration reference (docs/configuration.md)', () => {
  it('is the page the config schema renders today', () => {
    const file = join(repositoryRoot(), configReferencePath);
    const onDisk = existsSync(file) ? readFileSync(file, 'utf8') : '';
    expect(
      onDisk,
      `${configReferencePath} differs from the config schema: run \`${configReferenceCommand}\` and commit the page`,
    ).toBe(renderConfigReference());
  });

  it('describes every field of the configuration file', () => {
    const undescribed = sections
      .flatMap(([name, schema]) => configReferenceRows(name, schema))
      .filter((row) => row.description === undefined)
      .map((row) => row.path);
    expect(
      undescribed,
      'add .meta({ description }) to these fields in config-file-schema.ts',
    ).toEqual([]);
  });

  it('lists every top-level key the gateway accepts, each with an example', () => {
    const page = renderConfigReference();
    for (const [name, schema] of sections) {
      expect(page).toContain(`\n## ${name}\n`);
      expect(Array.isArray(schema.examples), `${name} has no example`).toBe(true);
    }
  });

  // The examples are what readers copy: each must start a gateway, semantic checks included.
  it.each(sections)('gives an example of %s that the gateway accepts', (name, schema) => {
    const [example] = schema.examples as unknown[];
    const env = {
      TEAM_A_KEY: 'team-a-key',
      TEAM_B_KEY: 'team-b-key',
      OPS_KEY: 'ops-key',
      VLLM_KEY: 'vllm-key',
    };
    expect(() => resolveGatewayConfig({ [name]: example }, env)).not.toThrow();
  });

  it('shows the defaults the gateway applies', () => {
    const resolved = resolveGatewayConfig(undefined, {});
    const page = renderConfigReference();
    expect(page).toContain(
      `| \`timeouts.first_event_ms\` | integer > 0 | \`${resolved.timeouts.firstEventMs}\``,
    );
    expect(page).toContain(
      `| \`limits.body_json_bytes\` | integer > 0 | \`${resolved.limits.bodyJsonBytes}\``,
    );
    expect(page).toContain(
      `| \`retries.attempts\` | integer >= 0 | \`${resolved.retries.attempts}\``,
    );
    expect(page).toContain(`| \`server.port\` | integer 0 to 65535 | \`${resolved.server.port}\``);
  });
});
