import { ConfigError, resolveGatewayConfig, type ResolvedGatewayConfig } from '@infergate/core';
import type { EdgeBindings } from './edge-bindings.js';

/** The string bindings only: Workers env also holds KV namespaces, service bindings and the like. */
function stringBindings(bindings: EdgeBindings): Record<string, string> {
  return Object.fromEntries(
    Object.entries(bindings).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

function parseConfigJson(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError('INFERGATE_CONFIG_JSON', `not valid JSON: ${(error as Error).message}`);
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    throw new ConfigError('INFERGATE_LOCAL_BACKEND_URL', `expected an http(s) URL, got '${url}'`);
  }
}

/**
 * The gateway configuration from the runtime's bindings, resolved by core (a ConfigError names the
 * field at fault). With INFERGATE_LOCAL_BACKEND_URL set, the upstreams marked `local` point there and
 * are reached over the network like any other; without it they keep core's placeholder URL, for an
 * app that mounts the local backend in-process.
 */
export function resolveEdgeConfig(bindings: EdgeBindings): ResolvedGatewayConfig {
  const env = stringBindings(bindings);
  const config = resolveGatewayConfig(parseConfigJson(env.INFERGATE_CONFIG_JSON), env);
  const localUrl = env.INFERGATE_LOCAL_BACKEND_URL?.trim();
  if (!localUrl) return config;
  const origin = originOf(localUrl);
  return {
    ...config,
    upstreams: config.upstreams.map((upstream) =>
      upstream.local ? { ...upstream, url: origin } : upstream,
    ),
  };
}
