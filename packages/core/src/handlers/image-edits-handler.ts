import { imageEditForm, inFormTerms, withFormImages } from '../forms/image-edit-form.js';
import type { RouteHandler } from '../ports/handler-types.js';
import { imageEditRequestSchema } from '../schemas/image-edit-request-schema.js';
import { parseRequestBody, validateRequest } from '../schemas/parse-request-body.js';
import { runImageRequest } from './run-image-request.js';

/**
 * POST /v1/images/edits: one edited image from base64 data URL inputs, sent as the API's JSON body or
 * as the multipart form the official clients send (each file becomes the data URL the JSON form carries).
 */
export const imageEditsHandler: RouteHandler = async (input, context) => {
  if (input.form === undefined) {
    const request = parseRequestBody(imageEditRequestSchema, input.body);
    return runImageRequest(input, context, { endpoint: 'image-edits', request });
  }
  const form = imageEditForm(input.form);
  try {
    const request = withFormImages(validateRequest(imageEditRequestSchema, form.value), form);
    return await runImageRequest(input, context, { endpoint: 'image-edits', request });
  } catch (error) {
    throw inFormTerms(error, form);
  }
};
