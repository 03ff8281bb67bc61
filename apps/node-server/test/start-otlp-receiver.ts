import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as OTLP/HTTP JSON carries it (ids hex, as the JSON exporter writes them). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** The service.name of each export. */
  serviceNames: string[];
  close(): Promise<void>;
}

interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: ReceivedSpan[] }>;
  }>;
}

/** A recording OTLP collector on 127.0.0.1:0 accepting POST /v1/traces as JSON. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const serviceNames: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (
        request.method !== 'POST' ||
        request.url !== '/v1/traces' ||
        !(request.headers['content-type'] ?? '').startsWith('application/json')
      ) {
        response.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = resourceSpans.resource?.attributes?.find(
          (attribute) => attribute.key === 'service.name',
        )?.value.stringValue;
        if (service !== undefined) serviceNames.push(service);
        for (const scope of resourceSpans.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    serviceNames,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
