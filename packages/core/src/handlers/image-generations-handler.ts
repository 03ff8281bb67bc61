import type { RouteHandler } from '../ports/handler-types.js';
import { imageGenerationRequestSchema } from '../schemas/image-generation-request-schema.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import { runImageRequest } from './run-image-request.js';

/** POST /v1/images/generations (spec): one image from a prompt, returned inline as b64_json. */
export const imageGenerationsHandler: RouteHandler = async (input, context) => {
  const request = parseRequestBody(imageGenerationRequestSchema, input.body);
  return runImageRequest(input, context, { endpoint: 'image-generations', request });
};
