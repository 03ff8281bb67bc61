import Anthropic from '@anthropic-ai/sdk';
import type { StartedGateway } from './contract-client.js';
import { holdToContract } from './hold-to-contract.js';

/**
 * The official Anthropic SDK pointed at the gateway as Claude Code and SDK users point it (base URL,
 * key), unchanged but for its fetch, which holds every answer to its route's contract on the way.
 * `violations` hears each breach even where the SDK would swallow the thrown error.
 */
export function anthropicClient(
  gateway: StartedGateway,
  violations: string[],
  apiKey: string = gateway.apiKey,
): Anthropic {
  return new Anthropic({
    apiKey,
    // Set explicitly so that ANTHROPIC_AUTH_TOKEN in the environment adds no second credential.
    authToken: null,
    baseURL: gateway.baseUrl,
    maxRetries: 0,
    fetch: async (url: string | URL | Request, init?: RequestInit) =>
      holdToContract(init?.method ?? 'GET', String(url), await fetch(url, init), (violation) =>
        violations.push(violation),
      ),
  });
}

/** What a call rejected with (fails the test when it resolved). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}
