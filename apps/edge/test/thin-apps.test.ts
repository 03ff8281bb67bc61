import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { routeTable } from '@infergate/core';
import { buildServer } from '@infergate/node-server';
import { createEdgeGateway } from '../src/create-edge-gateway.js';
import { resolveEdgeConfig } from '../src/resolve-edge-config.js';

/**
 * Neither app may grow request-handling logic of its own. Both register exactly core's route
 * table, declare no route path of their own, and stay small: a copied handler or a hand-written route
 * would break one of these.
 */

const appsDirectory = fileURLToPath(new URL('../../', import.meta.url));
// Non-blank lines of src/**/*.ts without tests. The apps stay thin: request handling belongs in core
// and the Node server setup both share in @infergate/node-runtime. Raise a bound only for work that
// belongs to the app's own runtime (its CLI, sockets, logging), never for request handling. The
// bounds count lines as Prettier writes them at 100 columns.
const sourceLineBounds = { edge: 650, 'node-server': 1140 } as const;

const coreRoutes = routeTable.map((route) => `${route.method} ${route.path}`).sort();

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

const honoParameters = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * "METHOD /path/{param}" of every route in Fastify's printRoutes tree: each line is its parent's path plus
 * a segment (under the root route `/`, segments come without their leading slash).
 */
function routesOfTree(tree: string): string[] {
  const parents: string[] = [];
  return tree.split('\n').flatMap((line) => {
    const match = /^([│├└─ ]*)(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line.trimEnd());
    if (!match) return [];
    const depth = (match[1] as string).length / 4 - 1;
    const path = (parents[depth - 1] ?? '') + (match[2] as string);
    parents[depth] = path;
    parents.length = depth + 1;
    return (match[3]?.split(', ') ?? []).map(
      (method) => `${method} ${path.replace(honoParameters, '{$1}')}`,
    );
  });
}

describe('both apps are thin adapters over core', () => {
  it("the edge app registers exactly core's route table", () => {
    const { app } = createEdgeGateway(
      resolveEdgeConfig({
        INFERGATE_API_KEYS: 'k',
        INFERGATE_LOCAL_BACKEND_URL: 'http://127.0.0.1:9',
      }),
    );
    const registered = app.routes
      .map((route) => `${route.method} ${route.path.replace(honoParameters, '{$1}')}`)
      .sort();
    expect(registered).toEqual(coreRoutes);
  });

  it("the node-server registers exactly core's route table", async () => {
    const config = resolveEdgeConfig({
      INFERGATE_API_KEYS: 'k',
      INFERGATE_LOCAL_BACKEND_URL: 'http://127.0.0.1:9',
    });
    const server = await buildServer(config);
    try {
      await server.app.ready();
      const registered = routesOfTree(server.app.printRoutes({ commonPrefix: false })).sort();
      expect(registered).toEqual(coreRoutes);
    } finally {
      await server.close(0);
    }
  });

  it.each(Object.entries(sourceLineBounds))(
    'apps/%s/src stays under %i non-blank lines and names no route path',
    (app, bound) => {
      const files = sourceFiles(join(appsDirectory, app, 'src'));
      expect(files.length).toBeGreaterThan(0);
      let lines = 0;
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        lines += text.split('\n').filter((line) => line.trim() !== '').length;
        // A route path in an app's source would be a route declared by hand (a bare '/' is any URL's default).
        for (const route of routeTable.filter((entry) => entry.path !== '/'))
          expect(text, `${file} names ${route.path}`).not.toContain(`'${route.path}'`);
      }
      console.info(
        `apps/${app}/src: ${files.length} files, ${lines} non-blank lines (bound ${bound})`,
      );
      expect(lines).toBeLessThanOrEqual(bound);
    },
  );
});
