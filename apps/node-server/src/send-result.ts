import type { FastifyReply } from 'fastify';
import type { HandlerResult } from '@infergate/core';
import { pipeStreamToResponse } from './pipe-stream-to-response.js';

/**
 * Writes a core result unchanged: JSON as status, headers and the already serialized body; a stream
 * body on the raw response (Fastify steps aside), with backpressure and cancellation on client close.
 */
export async function sendResult(reply: FastifyReply, result: HandlerResult): Promise<void> {
  if (result.kind === 'json' && typeof result.body === 'string')
    return reply.code(result.status).headers(result.headers).send(result.body);
  reply.hijack();
  const response = reply.raw;
  if (result.kind === 'json') {
    // Pieces (an embeddings answer around the upstream's bytes) go out in one writev, uncopied.
    response.writeHead(result.status, result.headers);
    for (const piece of result.body) response.write(piece);
    response.end();
    return;
  }
  if (response.destroyed) {
    // The client left while the upstream was being reached: cancelling aborts the upstream call.
    await result.body.cancel().catch(() => undefined);
    return;
  }
  // Flushed by the pipe: clients (openai-node among them) wait for the status line before reading events.
  response.writeHead(result.status, result.headers);
  await pipeStreamToResponse(result.body, response);
}
