import { it } from 'vitest';
import type { StartedGateway } from './contract-client.js';
import { holdToContract } from './hold-to-contract.js';

interface Exchange {
  method: string;
  url: string;
  requestBody: string;
  status: number | string;
  errorBody?: string;
  violations: string[];
}

const shown = 6_000;

function clip(text: string): string {
  return text.length > shown ? `${text.slice(0, shown)}... (${text.length} chars)` : text;
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  return typeof body === 'string' ? body : `[${Object.prototype.toString.call(body)}]`;
}

/**
 * A pass-through `fetch` that holds every answer to its route's contract and remembers what a client library sent and which answers were errors.
 * The clients stay unchanged (each accepts a `fetch` option); the record only serves the failure
 * message, so that a failing test names the exact request body the library built and the gateway's answer.
 */
class ExchangeLog {
  readonly exchanges: Exchange[] = [];

  readonly fetch: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const exchange: Exchange = {
      method,
      url,
      requestBody: bodyText(init?.body),
      status: 'no answer',
      violations: [],
    };
    this.exchanges.push(exchange);
    const response = await fetch(input, init);
    exchange.status = response.status;
    if (response.status >= 400) exchange.errorBody = await response.clone().text();
    return holdToContract(method, url, response, (violation) =>
      exchange.violations.push(violation),
    );
  };

  describe(): string {
    const lines = this.exchanges.map((exchange, index) =>
      [
        `#${index + 1} ${exchange.method} ${exchange.url} -> ${exchange.status}`,
        `  sent: ${clip(exchange.requestBody)}`,
        ...(exchange.errorBody === undefined ? [] : [`  answer: ${clip(exchange.errorBody)}`]),
        ...exchange.violations.map((violation) => `  contract: ${clip(violation)}`),
      ].join('\n'),
    );
    return `\nrequests the client sent:\n${lines.join('\n')}`;
  }
}

/**
 * A test whose client libraries talk to the gateway through a recording `fetch`; on failure the
 * error message lists every request body the library sent and every error answer it got.
 */
export function itWithExchanges(
  name: string,
  gateway: () => StartedGateway,
  body: (context: { gateway: StartedGateway; fetch: typeof fetch }) => Promise<void>,
): void {
  it(name, async () => {
    const log = new ExchangeLog();
    try {
      await body({ gateway: gateway(), fetch: log.fetch });
    } catch (error) {
      if (error instanceof Error) error.message += log.describe();
      throw error;
    }
    // A client library may have swallowed a violation (retried, or kept reading): it still fails the test.
    const violations = log.exchanges.flatMap((exchange) => exchange.violations);
    if (violations.length > 0)
      throw new Error(
        `answers broke their route's contract:\n${violations.join('\n')}${log.describe()}`,
      );
  });
}
