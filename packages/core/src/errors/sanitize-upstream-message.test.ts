import { describe, expect, it } from 'vitest';
import { sanitizeUpstreamMessage } from './sanitize-upstream-message.js';

describe('sanitizeUpstreamMessage', () => {
  it('strips credentials an upstream echoed back', () => {
    const out = sanitizeUpstreamMessage(
      'rejected credentials: Bearer upstream-canary-key-123456 and Basic dXNlcjpwYXNz',
    );
    expect(out).not.toContain('upstream-canary-key');
    expect(out).not.toContain('dXNlcjpwYXNz');
    expect(out).toContain('Bearer [redacted]');
  });

  it('strips URLs, IP addresses and host names', () => {
    const out = sanitizeUpstreamMessage(
      'could not reach http://10.0.0.5:8000/v1/chat via 10.0.0.5:8000 or vllm-a.cluster.local',
    );
    expect(out).not.toMatch(/10\.0\.0\.5|vllm-a|http:/);
  });

  it.each([
    [
      'an aiohttp connect failure (vLLM behind a proxy): host:port in a cluster and an IP in a tuple',
      "Cannot connect to host vllm-0.vllm.svc.cluster.local:8000 ssl:default [Connect call failed ('10.0.0.5', 8000)]",
      "Cannot connect to host [upstream] ssl:default [Connect call failed ('[upstream]', 8000)]",
    ],
    [
      'a URL at the end of a sentence keeps the full stop',
      'Failed to fetch http://10.1.2.3:8080/v1/models.',
      'Failed to fetch [upstream].',
    ],
    [
      'a URL in brackets keeps the closing bracket',
      'See the docs (https://docs.vllm.ai/en/latest/serving/engine_args.html) for limits.',
      'See the docs ([upstream]) for limits.',
    ],
    [
      'a URL followed by a comma',
      'upstream http://tei:80/embed, then retry',
      'upstream [upstream], then retry',
    ],
    [
      'a short machine name with a port',
      'upstream tei-embed-7:80 refused the connection; retry later',
      'upstream [upstream] refused the connection; retry later',
    ],
    [
      'localhost with a port',
      'connection refused by localhost:8000',
      'connection refused by [upstream]',
    ],
    [
      'a public host with three labels',
      'proxy at gpu-node-3.example.com returned 502',
      'proxy at [upstream] returned 502',
    ],
    [
      'a public host with a port',
      'TLS handshake with api.example.com:443 failed',
      'TLS handshake with [upstream] failed',
    ],
    [
      'an IPv6 address with a port',
      'no route to [fd00::12]:8000 (timeout)',
      'no route to [upstream] (timeout)',
    ],
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

describe('sanitizeUpstreamMessage on what vLLM, TEI and their proxies write', () => {
  it.each([
    [
      'a Python traceback line naming the source file',
      'File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py", line 233, in create_chat_completion',
      'File "[path]", line 233, in create_chat_completion',
    ],
    [
      'a model served from a local directory',
      'The model `/models/Qwen2.5-7B-Instruct` does not exist.',
      'The model `[path]` does not exist.',
    ],
    [
      "a tokenizer that could not be loaded from the server's cache",
      "Can't load tokenizer for '/root/.cache/huggingface/hub/models--Qwen--Qwen3-8B/snapshots/9c925d6/'. Make sure the path is correct.",
      "Can't load tokenizer for '[path]'. Make sure the path is correct.",
    ],
    [
      'a home-relative path',
      'No such file or directory: ~/.cache/vllm/torch_compile_cache/rank_0/model.bin',
      'No such file or directory: [path]',
    ],
    [
      'a Windows path',
      'OSError: unable to open C:\\models\\bge-m3\\tokenizer.json for reading',
      'OSError: unable to open [path] for reading',
    ],
    [
      'a requests connection pool naming its host and path',
      "HTTPConnectionPool(host='tei-embed', port=80): Max retries exceeded with url: /embed/batch (Caused by NewConnectionError('Failed to establish a new connection'))",
      "HTTPConnectionPool(host='[upstream]', port=80): Max retries exceeded with url: [path] (Caused by NewConnectionError('Failed to establish a new connection'))",
    ],
    [
      'a failed name lookup of a bare host',
      "Failed to resolve 'vllm-gpu-pool' ([Errno -2] Name or service not known)",
      "Failed to resolve '[upstream]' ([Errno -2] Name or service not known)",
    ],
    [
      'an IPv6 address without brackets',
      "Connect call failed ('fd00:10:96::a1', 8000, 0, 0)",
      "Connect call failed ('[upstream]', 8000, 0, 0)",
    ],
    [
      'the IPv6 loopback and a zone',
      'refused by ::1 and fe80::1%eth0.',
      'refused by [upstream] and [upstream].',
    ],
    [
      'an IPv4-mapped IPv6 address',
      'peer ::ffff:10.0.0.5 closed the stream',
      'peer [upstream] closed the stream',
    ],
    [
      'a host under a country suffix',
      'proxy vllm.prod.acme.de:8443 timed out',
      'proxy [upstream] timed out',
    ],
    [
      'an x-api-key header echoed back',
      'Invalid credentials in request headers {"x-api-key": "k-7f3a9c1e5b2d", "accept": "*/*"}',
      'Invalid credentials in request headers {"x-api-key": "[redacted]", "accept": "*/*"}',
    ],
    [
      'an x-api-key header line',
      'rejected x-api-key: upstreamsecret',
      'rejected x-api-key: [redacted]',
    ],
    [
      'an api_key field in a Python dict',
      "bad config {'api_key': 'hunter2', 'timeout': 30}",
      "bad config {'api_key': '[redacted]', 'timeout': 30}",
    ],
    [
      'an AWS access key id and its secret',
      'S3 download failed for AKIAIOSFODNN7EXAMPLE: aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'S3 download failed for [redacted]: aws_secret_access_key=[redacted]',
    ],
    [
      'an OpenAI-style key',
      'Incorrect API key provided: sk-proj-AbC123dEf456GhI789jKl0. You can find your API key at the dashboard.',
      'Incorrect API key provided: [redacted]. You can find your API key at the dashboard.',
    ],
    [
      'a Hugging Face token',
      'Invalid user token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 for gated repo',
      'Invalid user token [redacted] for gated repo',
    ],
    [
      'a bearer token of a JWT',
      'token expired: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ2bGxtIn0.c2lnbmF0dXJl',
      'token expired: [redacted]',
    ],
    [
      'an Authorization header with its scheme',
      'upstream said: Authorization: Bearer 7f3a9c1e-5b2d-8f4a',
      'upstream said: Authorization: Bearer [redacted]',
    ],
  ])('redacts %s and keeps the rest', (_name, message, expected) => {
    expect(sanitizeUpstreamMessage(message)).toBe(expected);
  });

  it.each([
    'Token indices sequence length is longer than the specified maximum sequence length for this model (600 > 512).',
    'The bearer of this request exceeded the token limit.',
    'Basic authentication is not enabled on this server.',
    'std::bad_alloc in the CUDA graph runner at 10:30:00',
    'Expected one of text/plain or application/json for the input; got image/png.',
    'The api_key parameter is not used by this server.',
    'Input should be a valid dictionary or object to extract fields from [type=model_attributes_type, input_value=[1, 2], input_type=list]',
    'MAC 00:1a:2b:3c:4d:5e is not an address this server knows.',
  ])('leaves a message without hosts, paths or secrets exactly as it was: %s', (message) => {
    expect(sanitizeUpstreamMessage(message)).toBe(message);
  });
});
