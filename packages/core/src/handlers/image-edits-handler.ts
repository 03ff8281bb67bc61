import type { RouteHandler } from '../ports/handler-types.js';
import { imageEditRequestSchema } from '../schemas/image-edit-request-schema.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import { runImageRequest } from './run-image-request.js';

/** POST /v1/images/edits (spec; a JSON body, not multipart): one edited image from base64 data URL inputs. */
export const imageEditsHandler: RouteHandler = async (input, context) => {
  const request = parseRequestBody(imageEditRequestSchema, input.body);
  return runImageRequest(input, context, { endpoint: 'image-edits', request });
};
