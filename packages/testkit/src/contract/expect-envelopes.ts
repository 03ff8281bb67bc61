import { expect } from 'vitest';
import { envelopeForPath } from '@infergate/core';
import { asRecord, type JsonReply } from './contract-client.js';

/** docs/design.md: native endpoints answer `{"error": {"message", "type", "param", "code"}}`, with `x-request-id`. */
export function expectNativeError(
  reply: JsonReply,
  status: number,
  expected: { code?: string; param?: string | null; type?: string } = {},
): Record<string, unknown> {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expect(reply.headers.get('x-request-id')).toBeTruthy();
  const body = asRecord(reply.json);
  expect(Object.keys(body)).toEqual(['error']);
  const error = asRecord(body.error);
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(typeof error.message).toBe('string');
  expect((error.message as string).length).toBeGreaterThan(0);
  expect(typeof error.type).toBe('string');
  expect(error.param === null || typeof error.param === 'string').toBe(true);
  if (expected.code !== undefined) expect(error.code).toBe(expected.code);
  if (expected.param !== undefined) expect(error.param).toBe(expected.param);
  if (expected.type !== undefined) expect(error.type).toBe(expected.type);
  // Never a stack trace or an upstream address.
  expect(reply.text).not.toMatch(/\n\s+at |127\.0\.0\.1|localhost:\d/);
  return error;
}

/** docs/design.md: compat endpoints answer `{"id": <request id>, "message": <text>}`. */
export function expectCompatError(reply: JsonReply, status: number): Record<string, unknown> {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  const requestId = reply.headers.get('x-request-id');
  expect(requestId).toBeTruthy();
  const body = asRecord(reply.json);
  expect(Object.keys(body).sort()).toEqual(['id', 'message']);
  expect(body.id).toBe(requestId);
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  return body;
}

/** The Messages API's routes answer `{"type": "error", "error": {"type", "message"}}`, with `request-id`. */
export function expectAnthropicError(reply: JsonReply, status: number): Record<string, unknown> {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expect(reply.headers.get('request-id')).toBe(reply.headers.get('x-request-id'));
  expect(reply.headers.get('request-id')).toBeTruthy();
  const body = asRecord(reply.json);
  expect(Object.keys(body).sort()).toEqual(['error', 'type']);
  expect(body.type).toBe('error');
  const error = asRecord(body.error);
  expect(Object.keys(error).sort()).toEqual(['message', 'type']);
  expect(typeof error.type).toBe('string');
  expect(typeof error.message).toBe('string');
  expect((error.message as string).length).toBeGreaterThan(0);
  expect(reply.text).not.toMatch(/\n\s+at |127\.0\.0\.1|localhost:\d/);
  return error;
}

/** The error envelope of `path`'s routes, checked on `reply`. */
export function expectErrorEnvelope(
  reply: JsonReply,
  path: string,
  status: number,
): Record<string, unknown> {
  const envelope = envelopeForPath(path);
  if (envelope === 'compat') return expectCompatError(reply, status);
  return envelope === 'anthropic'
    ? expectAnthropicError(reply, status)
    : expectNativeError(reply, status);
}
