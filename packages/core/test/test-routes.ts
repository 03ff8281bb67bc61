import { z } from 'zod';
import type {
  EventStreamResult,
  RouteDefinition,
  RouteHandler,
} from '../src/ports/handler-types.js';
import type { SseEvent } from '../src/sse/sse-event.js';

/** POST /v1/chat/completions (authenticated, capped, image-sized body) answered by `handler`; `fields` override. */
export function chatRoute(
  handler: RouteHandler,
  fields: Partial<RouteDefinition> = {},
): RouteDefinition {
  return {
    method: 'POST',
    path: '/v1/chat/completions',
    operationId: 'createChatCompletion',
    auth: true,
    bodyLimit: 'image',
    envelope: 'native',
    contract: { answers: 'json', response: z.unknown(), endpoint: 'chat' },
    handler,
    ...fields,
  };
}

/** A handler answering a 200 stream of the events `events()` makes, afresh for every request; `fields` override. */
export function streamHandler(
  events: () => AsyncIterable<SseEvent>,
  fields: Partial<EventStreamResult> = {},
): RouteHandler {
  return async () => ({
    kind: 'stream',
    status: 200,
    headers: {},
    meta: {},
    events: events(),
    ...fields,
  });
}

/** Events that fail before the first one with `message`, as a stream whose upstream resets. */
export async function* failingEvents(message: string): AsyncGenerator<SseEvent> {
  yield* [];
  throw new Error(message);
}
