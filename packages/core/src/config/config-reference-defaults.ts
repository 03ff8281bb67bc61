import {
  defaultDocs,
  defaultLimits,
  defaultMaxTokens,
  defaultMetrics,
  defaultRedis,
  defaultResponses,
  defaultRetries,
  defaultServer,
  defaultTimeouts,
  defaultTracing,
} from './resolve-gateway-config.js';

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

// The file spells every field as the snake_case of the resolved configuration's camelCase name, so a
// default added to one of these objects reaches the reference without a second list to keep.
const defaultsBySection: Readonly<Record<string, object>> = {
  server: defaultServer,
  limits: { ...defaultLimits, defaultMaxTokens },
  redis: defaultRedis,
  timeouts: defaultTimeouts,
  retries: defaultRetries,
  responses: defaultResponses,
  metrics: defaultMetrics,
  docs: defaultDocs,
  tracing: defaultTracing,
};

/**
 * The default of each configuration field that has a single one, by its path in the file
 * (`timeouts.connect_ms`), read from the objects resolveGatewayConfig applies.
 */
export function configReferenceDefaults(): ReadonlyMap<string, unknown> {
  const defaults = new Map<string, unknown>();
  for (const [section, values] of Object.entries(defaultsBySection)) {
    for (const [name, value] of Object.entries(values))
      defaults.set(`${section}.${snakeCase(name)}`, value);
  }
  return defaults;
}
