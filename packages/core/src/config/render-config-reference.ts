import { z } from 'zod';
import type { JsonSchema } from '../schemas/json-schema.js';
import { upstreamProtocols } from './protocol-names.js';
import { configFileSchema } from './config-file-schema.js';
import { configReferenceDefaults } from './config-reference-defaults.js';
import { configReferenceRows, type ConfigReferenceRow } from './config-reference-rows.js';
import { formatYaml } from './format-yaml.js';

/** Where the page lives in the repository and how to regenerate it; the test that compares them says so too. */
export const configReferencePath = 'docs/configuration.md';
export const configReferenceCommand = 'pnpm --filter @infergate/core docs:config';

const environmentVariables: readonly (readonly [string, string])[] = [
  [
    '`HOST`',
    'Address to listen on (default `127.0.0.1`); wins over `server.host`. Flag: `--host`.',
  ],
  ['`PORT`', 'Port to listen on (default `8080`); wins over `server.port`. Flag: `--port`.'],
  [
    '`INFERGATE_API_KEYS`',
    "Comma-separated client keys, added to the file's `keys`. With no key anywhere, one is generated at start and printed once.",
  ],
  [
    '`INFERGATE_CONFIG`',
    'Path of the configuration file: `.yaml`, `.yml` or `.json`. Flag: `--config`.',
  ],
  [
    '`LOG_LEVEL`',
    'Level of the JSON log lines on stdout: `fatal`, `error`, `warn`, `info` (default), `debug`, `trace`, `silent`.',
  ],
  [
    '`OTEL_EXPORTER_OTLP_ENDPOINT`',
    'OTLP/HTTP collector for traces when the file sets no `tracing.otlp_endpoint`.',
  ],
  [
    '`OTEL_SERVICE_NAME`',
    'Service name of the traces when the file sets no `tracing.service_name` (default `infergate`).',
  ],
];

const introduction = `# Configuration reference

<!-- Generated from packages/core/src/config/config-file-schema.ts by \`${configReferenceCommand}\`; edit the schema, not this page. -->

infergate starts with no configuration at all: it listens on \`127.0.0.1:8080\`, generates an API key
and prints it once, and the embedded local backend serves every catalogue model. Everything else is
set by a few environment variables and one optional configuration file. How the pieces fit together
is explained in [Operations](operations.md) and [Putting your own model servers behind infergate](own-model-servers.md);
this page lists every setting.

## Environment variables

| variable | effect |
|---|---|
${environmentVariables.map(([name, effect]) => `| ${name} | ${effect} |`).join('\n')}

## The configuration file

Name it with \`INFERGATE_CONFIG\` or \`--config\`; a relative path is read from the directory the server
is started in (with \`pnpm start\`, the folder the command is typed in). It is YAML or JSON,
chosen by the file's extension, and every key is optional. The file is checked completely at start: an
unknown key, a wrong type, a model id that is not in the catalogue or a missing environment variable
stops the start with one line naming the field (\`infergate: invalid configuration: upstreams[0].protocol: expected one of ${upstreamProtocols.join('|')}\`)
and exit code 2.

**Environment variables inside the file.** \`\${NAME}\` anywhere in a string value is replaced by the
environment variable \`NAME\`; a variable that is not set stops the start, naming it and the field.
Write \`$\${NAME}\` for a literal \`\${NAME}\`. Only values are substituted, never mapping keys. Since a
substitution always produces a string, numbers and booleans are also accepted as strings
(\`port: "\${PORT}"\`, \`local_backend: "true"\`). Keep secrets (\`keys\`, \`upstreams[].api_key\`,
\`redis.url\` credentials) in the environment this way rather than in the file.

In the tables below, \`<id>\` stands for a model id (or a virtual model id) and \`[]\` for each item of
a list. Durations are in milliseconds, sizes in bytes.
`;

function humanBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return ` (${bytes / size} ${unit})`;
  }
  return '';
}

function humanMilliseconds(ms: number): string {
  for (const [unit, size] of [
    ['min', 60_000],
    ['s', 1_000],
  ] as const) {
    if (ms >= size && ms % size === 0) return ` (${ms / size} ${unit})`;
  }
  return '';
}

function formatDefault(path: string, value: unknown): string {
  if (typeof value === 'number') {
    const hint = path.endsWith('_bytes')
      ? humanBytes(value)
      : path.endsWith('_ms')
        ? humanMilliseconds(value)
        : '';
    return `\`${value}\`${hint}`;
  }
  return `\`${String(value)}\``;
}

// A table cell holds one line, and a pipe would end it.
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function tableRow(row: ConfigReferenceRow, defaults: ReadonlyMap<string, unknown>): string {
  const fallback = defaults.has(row.path)
    ? formatDefault(row.path, defaults.get(row.path))
    : row.required
      ? 'required'
      : 'none';
  return `| \`${row.path}\` | ${cell(row.type)} | ${fallback} | ${cell(row.description ?? '')} |`;
}

function section(name: string, schema: JsonSchema, defaults: ReadonlyMap<string, unknown>): string {
  const [top, ...rows] = configReferenceRows(name, schema);
  const fallback = defaults.has(name)
    ? ` Default: ${formatDefault(name, defaults.get(name))}.`
    : '';
  const lines = [
    `## ${name}`,
    '',
    top?.description ?? '',
    '',
    `Type: ${top?.type ?? 'any'}.${fallback}`,
    '',
  ];
  if (rows.length > 0)
    lines.push(
      '| field | type | default | description |',
      '|---|---|---|---|',
      ...rows.map((row) => tableRow(row, defaults)),
      '',
    );
  const example = Array.isArray(schema.examples) ? (schema.examples[0] as unknown) : undefined;
  if (example !== undefined)
    lines.push('Example:', '', '```yaml', formatYaml({ [name]: example }).trimEnd(), '```', '');
  return lines.join('\n');
}

/** The JSON Schema of the validated configuration file, with the descriptions and examples of its fields. */
export function configFileJsonSchema(): JsonSchema {
  return z.toJSONSchema(configFileSchema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
}

/**
 * Every field of the configuration file as a markdown page (docs/configuration.md): type, default,
 * description and an example per section, rendered from the config schema and the defaults that
 * resolveGatewayConfig applies, so the page cannot drift from what the gateway accepts.
 */
export function renderConfigReference(): string {
  const schema = configFileJsonSchema();
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const defaults = configReferenceDefaults();
  const contents = Object.keys(properties)
    .map((name) => `[${name}](#${name})`)
    .join(' · ');
  const sections = Object.entries(properties).map(([name, property]) =>
    section(name, property, defaults),
  );
  return [introduction, `Sections: ${contents}`, '', ...sections].join('\n').replace(/\n+$/, '\n');
}
