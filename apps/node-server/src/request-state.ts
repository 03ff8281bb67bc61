import type {
  ApiKeyIdentity,
  LightAbortController,
  ResultMeta,
  RouteDefinition,
} from '@infergate/core';
import type { BodyTicket, GatewayTracing } from '@infergate/node-runtime';

/** What the app keeps per request for its abort signal and its one log line. */
export interface RequestState {
  startedAt: number;
  /** Aborted when the client goes away before the response has finished. */
  abort: LightAbortController;
  /** The route of core's table the request is for: Fastify's match, or the GET route a HEAD takes; absent for an unknown path. */
  route: RouteDefinition | undefined;
  /** Handed to core's dispatch, which counts it in the metrics; the app counts the others. */
  dispatched?: boolean;
  /** The caller's key, checked before the body was read (core's checkBeforeBody); dispatch does not check it again. */
  identity?: ApiKeyIdentity;
  /** Answered in full before its body arrived; the connection lingers, so it may close before the answer's end is seen. */
  answeredEarly?: boolean;
  /** The handler result's meta; for a stream it is final once the stream has closed. */
  meta?: ResultMeta;
  /** The body's bytes held against the budget (release: safe twice). Not a closure over the read body: that
   *  reached the request stream, so each request's objects outlived scavenges. */
  body?: BodyTicket;
  /** The request's span, when tracing is on: here rather than in a WeakMap keyed by the state, for the reason below. */
  span?: ReturnType<GatewayTracing['startRequest']>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route of core's table a Fastify route serves. */
    route?: RouteDefinition;
  }
  interface FastifyRequest {
    /** Set in onRequest. On the request, not in a WeakMap keyed by it: a scavenge keeps what an old WeakMap's entries hold. */
    requestState: RequestState | null;
  }
}
