import type { FastifyReply } from 'fastify';
import type { HandlerResult } from '@infergate/core';
import { pipeStreamToResponse } from './pipe-stream-to-response.js';

/**
 * Writes a core result unchanged: JSON as status, headers and the already serialized body; a stream
 * body on the raw response (Fastify steps aside), with backpressure and cancellation on client close.
 */
export async function sendResult(reply: FastifyReply, result: HandlerResult): Promise<void> {
  if (result.kind === 'json') {
    const { body } = result;
    // Bytes (an embeddings answer) go out as they are: a Buffer over the same memory, not a copy.
    await reply
      .code(result.status)
      .headers(result.headers)
      .send(typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    return;
  }
  reply.hijack();
  const response = reply.raw;
  if (response.destroyed) {
    // The client left while the upstream was being reached: cancelling aborts the upstream call.
    await result.body.cancel().catch(() => undefined);
    return;
  }
  // Flushed by the pipe: clients (openai-node among them) wait for the status line before reading events.
  response.writeHead(result.status, result.headers);
  await pipeStreamToResponse(result.body, response);
}
