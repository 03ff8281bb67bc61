import type { ResolvedGatewayConfig } from '@infergate/core';
import { describeBackends } from './describe-backends.js';

export interface StartBannerFacts {
  /** `http://host:port` the server listens on. */
  address: string;
  metricsAddress: string | undefined;
  config: ResolvedGatewayConfig;
  /** Shown once on the terminal (printGeneratedKey), never here; a configured key is never printed. */
  generatedKey: string | undefined;
  /** The environment the configuration came from (INFERGATE_API_KEYS, INFERGATE_CONFIG). */
  env: Readonly<Record<string, string | undefined>>;
}

/** A chat model this gateway serves, for the example request: a configured one when there are upstreams. */
function exampleChatModel(config: ResolvedGatewayConfig): string | undefined {
  const remote = config.upstreams
    .filter((upstream) => !upstream.local)
    .flatMap((upstream) => Object.keys(upstream.models));
  const chat = remote.find((id) => config.catalogue.models.get(id)?.serves.includes('chat'));
  if (chat !== undefined) return chat;
  const servedLocally = config.upstreams.some((upstream) => upstream.local);
  return servedLocally && config.catalogue.virtualModels.has('general-std')
    ? 'general-std'
    : undefined;
}

/**
 * The example's key: always the client's variable INFERGATE_API_KEY (the one README.md and docs/ use;
 * INFERGATE_API_KEYS is the server's list), and where the reader finds a key to set it to: a generated key is
 * shown on the terminal only (printGeneratedKey), a configured key never.
 */
function exampleKey(facts: StartBannerFacts): { setup: string; note: string } {
  if (facts.generatedKey !== undefined)
    return { setup: '', note: ' (INFERGATE_API_KEY: the API key printed above)' };
  if ((facts.env.INFERGATE_API_KEYS ?? '').trim() !== '')
    return { setup: '', note: ' (INFERGATE_API_KEY: one of the keys in INFERGATE_API_KEYS)' };
  return { setup: '', note: ' (INFERGATE_API_KEY: one of the keys in the configuration file)' };
}

function exampleCurl(facts: StartBannerFacts): string {
  const { setup, note } = exampleKey(facts);
  const model = exampleChatModel(facts.config);
  const auth = '-H "Authorization: Bearer $INFERGATE_API_KEY"';
  if (model === undefined)
    return `Try it${note}:\n${setup}  curl -s ${facts.address}/v1/models ${auth}\n`;
  const body = `{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}`;
  return `Try it${note}:\n${setup}  curl -s ${facts.address}/v1/chat/completions ${auth} -H "Content-Type: application/json" -d '${body}'\n`;
}

function configNote(env: StartBannerFacts['env']): string {
  const file = env.INFERGATE_CONFIG?.trim();
  if (file) return `Configuration: ${file}; every option: infergate --help\n`;
  return 'Configuration: none; put upstreams, keys and limits in a YAML file and start with --config <file> (or INFERGATE_CONFIG=<file>); every option: infergate --help\n';
}

/**
 * What the server prints once it listens: where, who serves the models, the docs, a request that works
 * as printed, and where a configuration goes. The first line's `listening on <address>;` is what
 * scripts and tests wait for.
 */
export function startBanner(facts: StartBannerFacts): string {
  const metricsNote =
    facts.metricsAddress === undefined ? '' : `; metrics on ${facts.metricsAddress}/metrics`;
  let banner = `infergate listening on ${facts.address}; ${describeBackends(facts.config)}${metricsNote}\n`;
  if (facts.config.docs?.enabled !== false) banner += `Docs: ${facts.address}/docs\n`;
  return banner + exampleCurl(facts) + configNote(facts.env);
}
