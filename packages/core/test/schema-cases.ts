import type { z } from 'zod';
import { isGatewayError } from '../src/errors/gateway-error.js';
import { parseRequestBody } from '../src/schemas/parse-request-body.js';

/**
 * A request schema's two test views: `parse` sends a body through parseRequestBody as a client's JSON,
 * `failure` expects it refused and gives the GatewayError's status, code, param and message.
 */
export function schemaCases<Schema extends z.ZodType>(schema: Schema) {
  const parse = (body: unknown): z.output<Schema> => parseRequestBody(schema, JSON.stringify(body));
  const failure = (body: unknown) => {
    try {
      parse(body);
    } catch (error) {
      if (isGatewayError(error))
        return {
          status: error.status,
          code: error.code,
          param: error.param,
          message: error.message,
        };
      throw error;
    }
    throw new Error('expected the body to be refused');
  };
  return { parse, failure };
}
