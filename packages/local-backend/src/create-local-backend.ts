import { chatCompletionsRoute } from './chat/chat-completions-route.js';
import { embeddingsRoute } from './embeddings/embeddings-route.js';
import type { RouteContext } from './http/route-context.js';
import { TeiError } from './http/tei-error.js';
import { VllmError } from './http/vllm-error.js';
import { imageEditsRoute } from './images/image-edits-route.js';
import { imageGenerationsRoute } from './images/image-generations-route.js';
import type { LocalBackendOptions } from './local-backend-options.js';
import { ModelRegistry } from './models/model-registry.js';
import { modelRoute, modelsRoute } from './models/models-route.js';
import { cohereRerankRoute } from './rerank/cohere-rerank-route.js';
import { teiRerankRoute } from './rerank/tei-rerank-route.js';
import { detokenizeRoute } from './tokenize/detokenize-route.js';
import { tokenizeRoute } from './tokenize/tokenize-route.js';

type Route = (request: Request, context: RouteContext) => Promise<Response>;

const routes: Record<string, Partial<Record<string, Route>>> = {
  '/v1/chat/completions': { POST: chatCompletionsRoute },
  '/tokenize': { POST: tokenizeRoute },
  '/detokenize': { POST: detokenizeRoute },
  '/v1/embeddings': { POST: embeddingsRoute },
  '/v2/rerank': { POST: cohereRerankRoute },
  '/rerank': { POST: teiRerankRoute },
  '/v1/images/generations': { POST: imageGenerationsRoute },
  '/v1/images/edits': { POST: imageEditsRoute },
  '/v1/models': { GET: modelsRoute },
  // vLLM answers its health check with an empty 200.
  '/health': { GET: () => Promise.resolve(new Response(null, { status: 200 })) },
};

/**
 * The local backend as a Web-standard handler: vLLM's OpenAI server (chat, tokenize, embeddings, models),
 * Cohere v2 and TEI rerank, and OpenAI-style images, for every catalogue model. Pure Web APIs plus sharp and
 * the tokenizer, so the gateway can call it in process.
 */
export function createLocalBackend(
  options: LocalBackendOptions = {},
): (request: Request) => Promise<Response> {
  const context: RouteContext = { registry: new ModelRegistry(options), options };
  return async (request) => {
    const { pathname } = new URL(request.url);
    try {
      const methods = routes[pathname];
      if (methods === undefined) {
        if (request.method === 'GET' && pathname.startsWith('/v1/models/'))
          return modelRoute(decodeURIComponent(pathname.slice('/v1/models/'.length)), context);
        // FastAPI's own bodies for unrouted paths and methods.
        return Response.json({ detail: 'Not Found' }, { status: 404 });
      }
      const route = methods[request.method];
      if (route === undefined)
        return Response.json(
          { detail: 'Method Not Allowed' },
          { status: 405, headers: { allow: Object.keys(methods).join(', ') } },
        );
      return await route(request, context);
    } catch (error) {
      if (error instanceof VllmError || error instanceof TeiError) return error.toResponse();
      return VllmError.internal(
        error instanceof Error ? error.message : 'internal error',
      ).toResponse();
    }
  };
}
