import type { z } from 'zod';
import { GatewayError } from '../errors/gateway-error.js';
import { parseJson } from './parse-json.js';

type PathSegment = PropertyKey;

/** `['messages', 2, 'content']` as `messages[2].content`, the form `param` takes in error bodies. */
export function formatParamPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out.length === 0 ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/** The first zod issue as the GatewayError a client sees, `param` naming the offending field. */
export function issueToGatewayError(issue: z.core.$ZodIssue, input: unknown): GatewayError {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return GatewayError.unknownParameter(formatParamPath([...issue.path, key]));
  }
  const param = formatParamPath(issue.path);
  // zod reports an absent enum as invalid_value and an absent object as invalid_type: whatever the
  // code, a field that is not there at all is missing.
  if (issue.path.length > 0 && valueAt(input, issue.path) === undefined) {
    return GatewayError.missingParameter(param);
  }
  if (param.length === 0)
    return GatewayError.badRequest(`The request body is invalid: ${issue.message}`);
  return GatewayError.invalidParameter(param, `Invalid value for '${param}': ${issue.message}`);
}

/** Validates an already-parsed value against a request schema; 400 naming the field on failure. */
export function validateRequest<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw GatewayError.badRequest('The request body is invalid.');
  throw issueToGatewayError(issue, value);
}

/** Parses a raw JSON body (prototype-poisoning safe) and validates it; every failure is a 400. */
export function parseRequestBody<Schema extends z.ZodType>(
  schema: Schema,
  body: string | undefined,
): z.output<Schema> {
  if (body === undefined) throw GatewayError.invalidJson('the body is empty.');
  return validateRequest(schema, parseJson(body));
}
