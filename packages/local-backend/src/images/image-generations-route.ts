import { readJsonBody } from '../http/read-json-body.js';
import type { RouteContext } from '../http/route-context.js';
import { bytesToBase64, encodeImage } from './encode-image.js';
import { formatForSize } from './format-for-size.js';
import { imagePattern } from './image-pattern.js';
import { parseImageRequest } from './image-request.js';
import { imageResultBody } from './image-result-body.js';

// OpenAI's default size for GPT image models when size is absent or auto.
const defaultSize = { width: 1024, height: 1024 };

/** `POST /v1/images/generations`: a real image of the requested size and format, seeded by the prompt. */
export async function imageGenerationsRoute(
  request: Request,
  context: RouteContext,
): Promise<Response> {
  const image = parseImageRequest(await readJsonBody(request));
  context.registry.resolveKind(image.model, ['image-generation'], 'Images');
  const { width, height } = image.size ?? defaultSize;
  const format = formatForSize(image.outputFormat, width, height);
  const images: string[] = [];
  for (let index = 0; index < image.n; index += 1) {
    const prompt = index === 0 ? image.prompt : `${image.prompt}\u0000${index}`;
    images.push(
      bytesToBase64(
        await encodeImage(
          imagePattern(prompt, width, height),
          width,
          height,
          format,
          image.quality,
          image.prompt,
        ),
      ),
    );
  }
  return Response.json(imageResultBody(images, width, height, format, image.quality));
}
