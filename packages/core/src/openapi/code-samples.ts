import type { ClientCalls } from './operation-docs.js';

/** One entry of `x-codeSamples`, the extension Scalar and Redoc read. */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export interface CodeSampleRequest {
  method: string;
  /** The path with its parameters filled in. */
  path: string;
  body: Record<string, unknown> | undefined;
  auth: boolean;
  clients: ClientCalls | undefined;
  pathParameter: string | undefined;
}

const baseUrl = 'http://127.0.0.1:8080';
// Kept out of the templates: core's portability check reads imports and `process` in its own source.
const sdkPackage = '@infergate/sdk';
const apiKeyFromEnv = 'process.env.INFERGATE_API_KEY';

/** A JSON value as a Python literal (True, False, None). */
function toPython(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map((item) => toPython(item)).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${toPython(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

function pythonKeywords(body: Record<string, unknown>): string {
  return Object.entries(body)
    .map(([key, value]) => `    ${key}=${toPython(value)},`)
    .join('\n');
}

const camel = (key: string): string =>
  key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

// The Cohere TypeScript client takes camelCase fields and sends them snake_case.
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [camel(key), camelKeys(item)]),
    );
  return value;
}

function jsArgument(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function curl(request: CodeSampleRequest): string {
  const lines = [
    `curl${request.method === 'GET' ? '' : ` -X ${request.method}`} ${baseUrl}${request.path}`,
  ];
  if (request.auth) lines.push('  -H "Authorization: Bearer $INFERGATE_API_KEY"');
  if (request.body !== undefined) {
    lines.push('  -H "Content-Type: application/json"');
    lines.push(`  -d '${JSON.stringify(request.body).replace(/'/g, "'\\''")}'`);
  }
  return lines.join(' \\\n');
}

function callArguments(
  request: CodeSampleRequest,
  format: (body: Record<string, unknown>) => string,
): string {
  if (request.body !== undefined) return format(request.body);
  if (request.pathParameter !== undefined) return JSON.stringify(request.pathParameter);
  return '';
}

/** curl, the official OpenAI and Cohere clients (Python and JavaScript) and @infergate/sdk, as each endpoint allows. */
export function codeSamples(request: CodeSampleRequest): CodeSample[] {
  const samples: CodeSample[] = [{ lang: 'shell', label: 'curl', source: curl(request) }];
  const { clients } = request;
  if (clients?.openai !== undefined) {
    const pythonArguments = callArguments(request, (body) => `\n${pythonKeywords(body)}\n`);
    samples.push({
      lang: 'python',
      label: 'OpenAI Python',
      source: `import os\nfrom openai import OpenAI\n\nclient = OpenAI(base_url="${baseUrl}/v1", api_key=os.environ["INFERGATE_API_KEY"])\nresult = client.${clients.openai}(${pythonArguments})\nprint(result)`,
    });
    samples.push({
      lang: 'javascript',
      label: 'OpenAI Node',
      source: `import OpenAI from 'openai';\n\nconst client = new OpenAI({ baseURL: '${baseUrl}/v1', apiKey: ${apiKeyFromEnv} });\nconst result = await client.${clients.openai}(${callArguments(request, jsArgument)});\nconsole.log(result);`,
    });
  }
  if (clients?.cohere !== undefined && request.body !== undefined) {
    samples.push({
      lang: 'python',
      label: 'Cohere Python',
      source: `import os\nimport cohere\n\nco = cohere.ClientV2(api_key=os.environ["INFERGATE_API_KEY"], base_url="${baseUrl}/compat")\nresult = co.${clients.cohere}(\n${pythonKeywords(request.body)}\n)\nprint(result)`,
    });
    samples.push({
      lang: 'javascript',
      label: 'Cohere TypeScript',
      source: `import { CohereClientV2 } from 'cohere-ai';\n\nconst cohere = new CohereClientV2({ token: ${apiKeyFromEnv}, baseUrl: '${baseUrl}/compat' });\nconst result = await cohere.${clients.cohere}(${jsArgument(camelKeys(request.body))});\nconsole.log(result);`,
    });
  }
  if (clients?.sdk !== undefined) {
    samples.push({
      lang: 'typescript',
      label: '@infergate/sdk',
      source: `import { createClient } from '${sdkPackage}';\n\nconst client = createClient({ baseURL: '${baseUrl}', apiKey: ${apiKeyFromEnv} });\nconst result = await client.${clients.sdk}(${callArguments(request, jsArgument)});\nconsole.log(result);`,
    });
  }
  return samples;
}
