import { describe, expect, it } from 'vitest';
import { sanitizeUpstreamMessage } from './sanitize-upstream-message.js';

describe('sanitizeUpstreamMessage', () => {
  it('strips credentials an upstream echoed back', () => {
    const out = sanitizeUpstreamMessage('rejected credentials: Bearer upstream-canary-key-123456 and Basic dXNlcjpwYXNz');
    expect(out).not.toContain('upstream-canary-key');
    expect(out).not.toContain('dXNlcjpwYXNz');
    expect(out).toContain('Bearer [redacted]');
  });

  it('strips URLs, IP addresses and host names', () => {
    const out = sanitizeUpstreamMessage('could not reach http://10.0.0.5:8000/v1/chat via 10.0.0.5:8000 or vllm-a.cluster.local');
    expect(out).not.toMatch(/10\.0\.0\.5|vllm-a|http:/);
  });

  it.each([
    [
      'an aiohttp connect failure (vLLM behind a proxy): host:port in a cluster and an IP in a tuple',
      "Cannot connect to host vllm-0.vllm.svc.cluster.local:8000 ssl:default [Connect call failed ('10.0.0.5', 8000)]",
      "Cannot connect to host [upstream] ssl:default [Connect call failed ('[upstream]', 8000)]",
    ],
    ['a URL at the end of a sentence keeps the full stop', 'Failed to fetch http://10.1.2.3:8080/v1/models.', 'Failed to fetch [upstream].'],
    [
      'a URL in brackets keeps the closing bracket',
      'See the docs (https://docs.vllm.ai/en/latest/serving/engine_args.html) for limits.',
      'See the docs ([upstream]) for limits.',
    ],
    ['a URL followed by a comma', 'upstream http://tei:80/embed, then retry', 'upstream [upstream], then retry'],
    [
      'a short machine name with a port',
      'upstream tei-embed-7:80 refused the connection; retry later',
      'upstream [upstream] refused the connection; retry later',
    ],
    ['localhost with a port', 'connection refused by localhost:8000', 'connection refused by [upstream]'],
    ['a public host with three labels', 'proxy at gpu-node-3.example.com returned 502', 'proxy at [upstream] returned 502'],
    ['a public host with a port', 'TLS handshake with api.example.com:443 failed', 'TLS handshake with [upstream] failed'],
    ['an IPv6 address with a port', 'no route to [fd00::12]:8000 (timeout)', 'no route to [upstream] (timeout)'],
    ['an IP at the end of a sentence', 'Request from 192.168.1.20.', 'Request from [upstream].'],
  ])('redacts %s and keeps the rest', (_name, message, expected) => {
    expect(sanitizeUpstreamMessage(message)).toBe(expected);
  });

  it.each([
    "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
    'Input validation error: `inputs` must have less than 512 tokens. Given: 600',
    "[{'type': 'missing', 'loc': ('body', 'messages'), 'msg': 'Field required', 'input': {'model': 'm'}}]",
    "AttributeError: 'Model' object has no attribute 'self.net'; config.io and model.safetensors were not found",
    'max tokens:8192 exceeded at 10:30:00',
    'vLLM v0.10.1.1 does not support this parameter; see the README.md',
    'The model `Qwen/Qwen2.5-7B-Instruct` does not exist.',
  ])('leaves a message without hosts exactly as it was: %s', (message) => {
    expect(sanitizeUpstreamMessage(message)).toBe(message);
  });
});
