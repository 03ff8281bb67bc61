// Build step: the OpenAPI document of the default catalogue, written beside the bundle as
// dist/openapi.json (a running gateway serves its own, with its configured models, at /openapi.json).
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import { buildOpenApiDocument, defaultCatalogue, routeTable } from '../dist/index.js';

const target = new URL('../dist/openapi.json', import.meta.url);
writeFileSync(
  target,
  `${JSON.stringify(buildOpenApiDocument({ catalogue: defaultCatalogue, routes: routeTable }), null, 2)}\n`,
);
process.stdout.write(`wrote ${target.pathname}\n`);
