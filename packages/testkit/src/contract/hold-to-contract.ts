import {
  envelopeForPath,
  errorEnvelopeSchemas,
  isGatewayError,
  matchRoute,
  routeTable,
} from '@infergate/core';
import type { RouteDefinition } from '@infergate/core';
import type { z } from 'zod';

/**
 * Holds an answer of the gateway to its route's contract (core's route table): a 2xx JSON body to the
 * route's response schema, each streamed event to its event schema, an error body to the route's
 * envelope. Strict: a field the schema does not name is a failure too (unless the schema is `.loose()`),
 * since the published OpenAPI document is these schemas and would not mention it.
 */

function routeOf(method: string, path: string): RouteDefinition | undefined {
  const match = matchRoute(routeTable, method, path);
  return isGatewayError(match) ? undefined : match.route;
}

/** Fields of `input` that parsing left out of `output`: fields the schema does not know. */
function unknownFields(input: unknown, output: unknown, at: string): string[] {
  if (Array.isArray(input) && Array.isArray(output))
    return input.flatMap((item, index) => unknownFields(item, output[index], `${at}[${index}]`));
  if (
    typeof input !== 'object' ||
    input === null ||
    typeof output !== 'object' ||
    output === null ||
    Array.isArray(input)
  )
    return [];
  const kept = output as Record<string, unknown>;
  return Object.entries(input).flatMap(([key, value]) =>
    key in kept
      ? unknownFields(value, kept[key], at === '' ? key : `${at}.${key}`)
      : [at === '' ? key : `${at}.${key}`],
  );
}

/** Why `value` breaks `schema`, or undefined when it holds to it. */
export function contractViolation(
  schema: z.ZodType,
  value: unknown,
  what: string,
): string | undefined {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    return `${what} breaks its contract: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ')}`;
  const extra = unknownFields(value, parsed.data, '');
  return extra.length === 0
    ? undefined
    : `${what} sends fields its contract does not name: ${extra.join(', ')}`;
}

function envelopeOf(
  route: RouteDefinition | undefined,
  path: string,
): keyof typeof errorEnvelopeSchemas {
  return route?.envelope ?? envelopeForPath(path);
}

function jsonViolation(
  method: string,
  path: string,
  status: number,
  text: string,
): string | undefined {
  const what = `${method} ${path} -> ${status}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${what} is not JSON: ${text.slice(0, 200)}`;
  }
  const route = routeOf(method, path);
  const contract = route?.contract;
  if (contract?.answers === 'json' && (contract.responseStatuses ?? [200]).includes(status))
    return contractViolation(contract.response, body, what);
  if (status >= 400)
    return contractViolation(errorEnvelopeSchemas[envelopeOf(route, path)], body, what);
  if (contract === undefined || contract.answers !== 'json')
    return `${what}: a JSON answer from a route whose contract has no response schema`;
  return `${what}: a status its contract does not answer with a body`;
}

/** The `data` of each complete event in `buffer`, and what is left of it. */
function takeEvents(buffer: string): { events: string[]; rest: string } {
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events = blocks.flatMap((block) => {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
    return data.length === 0 ? [] : [data.join('\n')];
  });
  return { events, rest };
}

function eventViolation(schema: z.ZodType, data: string, what: string): string | undefined {
  if (data === '[DONE]') return undefined;
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    return `${what}: an event that is not JSON: ${data.slice(0, 200)}`;
  }
  return contractViolation(schema, event, `${what} event ${data.slice(0, 300)}`);
}

/** The stream's bytes unchanged, erroring the stream at the first event that breaks `schema`. */
function checkedEvents(
  body: ReadableStream<Uint8Array>,
  schema: z.ZodType,
  what: string,
  report: (violation: string) => void,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = '';
  const check = (
    controller: TransformStreamDefaultController<Uint8Array>,
    final: boolean,
  ): void => {
    const { events, rest } = takeEvents(final ? `${buffer}\n\n` : buffer);
    buffer = rest;
    for (const data of events) {
      const violation = eventViolation(schema, data, what);
      if (violation !== undefined) {
        report(violation);
        controller.error(new Error(violation));
        return;
      }
    }
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        buffer += decoder.decode(chunk, { stream: true });
        check(controller, false);
      },
      flush(controller) {
        buffer += decoder.decode();
        if (buffer.trim() !== '') check(controller, true);
      },
    }),
  );
}

/**
 * `response` as the caller would have had it, after holding it to its route's contract. A JSON body is
 * read and checked at once (a violation throws); a stream is checked event by event as the caller reads it.
 * `report` also hears each violation, for callers whose client library would swallow the thrown error.
 */
export async function holdToContract(
  method: string,
  url: string,
  response: Response,
  report: (violation: string) => void = () => {},
): Promise<Response> {
  const path = new URL(url).pathname;
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream') && response.body !== null) {
    const route = routeOf(method, path);
    const events = route?.contract.answers === 'json' ? route.contract.events : undefined;
    const what = `${method} ${path} stream`;
    if (events === undefined) {
      const violation = `${what}: a stream from a route whose contract has no event schema`;
      report(violation);
      throw new Error(violation);
    }
    return new Response(checkedEvents(response.body, events, what, report), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
  if (!type.startsWith('application/json') || method === 'HEAD') return response;
  const text = await response.text();
  const violation = jsonViolation(method, path, response.status, text);
  if (violation !== undefined) {
    report(violation);
    throw new Error(`${violation}\nbody: ${text.slice(0, 2000)}`);
  }
  return new Response(text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
