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
  const remote = config.upstreams.filter((upstream) => !upstream.local).flatMap((upstream) => Object.keys(upstream.models));
  const chat = remote.find((id) => config.catalogue.models.get(id)?.serves.includes('chat'));
  if (chat !== undefined) return chat;
  const servedLocally = config.upstreams.some((upstream) => upstream.local);
  return servedLocally && config.catalogue.virtualModels.has('general-std') ? 'general-std' : undefined;
}

/** The Authorization header value of the example, and what the reader must have done for it to work. */
function exampleKey(facts: StartBannerFacts): { bearer: string; note: string } {
  if (facts.generatedKey !== undefined) return { bearer: '$INFERGATE_API_KEY', note: ' (after export INFERGATE_API_KEY=<the API key generated above>)' };
  const fromEnv = (facts.env.INFERGATE_API_KEYS ?? '').trim();
  if (fromEnv !== '') {
    // The shell expands it: the banner never shows a configured key. With several, the first one.
    const bearer = fromEnv.includes(',') ? '${INFERGATE_API_KEYS%%,*}' : '$INFERGATE_API_KEYS';
    return { bearer, note: ' (in a shell where INFERGATE_API_KEYS is set as for this start)' };
  }
  return { bearer: '$API_KEY', note: ' (API_KEY: one of the keys in the configuration file)' };
}

function exampleCurl(facts: StartBannerFacts): string {
  const { bearer, note } = exampleKey(facts);
  const model = exampleChatModel(facts.config);
  const auth = `-H "Authorization: Bearer ${bearer}"`;
  if (model === undefined) return `Try it${note}:\n  curl -s ${facts.address}/v1/models ${auth}\n`;
  const body = `{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}`;
  return `Try it${note}:\n  curl -s ${facts.address}/v1/chat/completions ${auth} -H "Content-Type: application/json" -d '${body}'\n`;
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
  const metricsNote = facts.metricsAddress === undefined ? '' : `; metrics on ${facts.metricsAddress}/metrics`;
  let banner = `infergate listening on ${facts.address}; ${describeBackends(facts.config)}${metricsNote}\n`;
  if (facts.config.docs?.enabled !== false) banner += `Docs: ${facts.address}/docs\n`;
  return banner + exampleCurl(facts) + configNote(facts.env);
}
