import { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';
import { upstreamBodyIssue } from '../upstream-body-issue.js';

/** The spec's image result object (generation and editing). */
export interface ImageResult {
  created: number;
  data: Array<{ b64_json: string }>;
  usage: {
    total_tokens: number;
    input_tokens: number;
    output_tokens: number;
    input_tokens_details: { text_tokens: number; image_tokens: number };
  };
  output_format: string;
  quality: string;
  size: string;
}

const tokenCount = z.int().min(0);

// ImagesResponse: loose, because servers add fields (background, revised_prompt...)
// the gateway does not pass on. Only b64_json images are usable: the gateway never hands out URLs.
const upstreamImagesResponseSchema = z.looseObject({
  data: z.array(z.looseObject({ b64_json: z.string().min(1) })).min(1),
  output_format: z.string().optional(),
  quality: z.string().optional(),
  size: z.string().optional(),
  usage: z
    .looseObject({
      input_tokens: tokenCount.optional(),
      output_tokens: tokenCount.optional(),
      total_tokens: tokenCount.optional(),
      input_tokens_details: z
        .looseObject({ text_tokens: tokenCount.optional(), image_tokens: tokenCount.optional() })
        .nullish(),
    })
    .nullish(),
});

export interface ImageResultDefaults {
  /** Unix seconds, from the gateway's clock. */
  created: number;
  /** What was asked of the upstream; used where the upstream's answer leaves a field out. */
  outputFormat: string;
  quality: string;
  size: string;
}

/** An upstream ImagesResponse as the spec's image result; a 2xx body of another shape is the upstream's failure (502). */
export function imageResultFromUpstream(body: unknown, defaults: ImageResultDefaults): ImageResult {
  const parsed = upstreamImagesResponseSchema.safeParse(body);
  if (!parsed.success)
    throw GatewayError.upstreamBodyInvalid(
      'The image model server answered with an unexpected body.',
      upstreamBodyIssue(parsed.error),
    );
  const upstream = parsed.data;
  const inputTokens = upstream.usage?.input_tokens ?? 0;
  const outputTokens = upstream.usage?.output_tokens ?? 0;
  return {
    created: defaults.created,
    data: upstream.data.map((image) => ({ b64_json: image.b64_json })),
    usage: {
      total_tokens: upstream.usage?.total_tokens ?? inputTokens + outputTokens,
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      input_tokens_details: {
        text_tokens: upstream.usage?.input_tokens_details?.text_tokens ?? 0,
        image_tokens: upstream.usage?.input_tokens_details?.image_tokens ?? 0,
      },
    },
    output_format: upstream.output_format ?? defaults.outputFormat,
    quality: upstream.quality ?? defaults.quality,
    size: upstream.size ?? defaults.size,
  };
}
