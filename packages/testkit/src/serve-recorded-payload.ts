import type { RecordedServerPayload } from './recorded-server-payloads.js';
import type { UpstreamHandler } from './start-recording-upstream.js';
import { writeChatSse, writeJson } from './write-json.js';

/**
 * A `/v1/chat/completions` handler that answers in the shape of `current()` (read per request, so one
 * upstream can play each server in turn): the stream when the request asks for one, else the
 * non-streamed answer, with the model name the request gave.
 */
export function serveRecordedPayload(current: () => RecordedServerPayload): UpstreamHandler {
  return (request, response) => {
    const body = (request.body ?? {}) as { model?: unknown; stream?: unknown };
    const model = typeof body.model === 'string' ? body.model : 'unknown';
    const payload = current();
    if (body.stream === true) writeChatSse(response, payload.chunks(model));
    else writeJson(response, 200, payload.completion(model));
  };
}
