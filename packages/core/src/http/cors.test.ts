import { describe, expect, it } from 'vitest';
import { resolveGatewayConfig } from '../config/resolve-gateway-config.js';
import { allowedOrigin, corsResponseHeaders, preflightHeaders } from './cors.js';

const configWith = (origins: string[] | undefined) =>
  resolveGatewayConfig(origins === undefined ? {} : { server: { cors: { origins } } }, {});
const headersOf = (values: Record<string, string>) => (name: string) => values[name];

describe('CORS decisions', () => {
  it('is off without server.cors: no headers, no preflight', () => {
    const config = configWith(undefined);
    expect(corsResponseHeaders(config, 'https://app.example.com')).toEqual({});
    expect(
      preflightHeaders(
        config,
        headersOf({ origin: 'https://app.example.com', 'access-control-request-method': 'POST' }),
        ['POST'],
      ),
    ).toBeUndefined();
  });

  it('compares origins as browsers send them, after normalizing the configured ones', () => {
    const config = configWith(['https://APP.example.com:443/']);
    expect(config.server.cors?.origins).toEqual(['https://app.example.com']);
    expect(allowedOrigin(config, 'https://app.example.com')).toBe('https://app.example.com');
    expect(allowedOrigin(config, 'http://app.example.com')).toBeUndefined();
    expect(allowedOrigin(config, 'https://app.example.com.evil.net')).toBeUndefined();
  });

  it('echoes any origin with *, but never the opaque origin "null"', () => {
    const config = configWith(['*']);
    expect(allowedOrigin(config, 'https://anywhere.test')).toBe('https://anywhere.test');
    expect(allowedOrigin(config, 'null')).toBeUndefined();
  });

  it('needs Access-Control-Request-Method for a preflight, and echoes only header names that are tokens', () => {
    const config = configWith(['https://app.example.com']);
    expect(
      preflightHeaders(config, headersOf({ origin: 'https://app.example.com' }), ['POST']),
    ).toBeUndefined();
    const headers = preflightHeaders(
      config,
      headersOf({
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'X-Custom, bad header, a\r\nb',
      }),
      ['POST', 'GET'],
    );
    expect(headers?.['access-control-allow-methods']).toBe('POST, GET');
    expect(headers?.['access-control-allow-headers']).toBe(
      'authorization, content-type, x-request-id, x-custom',
    );
  });
});
