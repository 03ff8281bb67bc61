import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Bare builtin names go in `paths` (exact specifiers): as `patterns` they would also match core's own
// folders, such as `../http/dispatch.js`.
const nodeBuiltins = [
  'fs',
  'fs/promises',
  'path',
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dns',
  'crypto',
  'stream',
  'stream/web',
  'buffer',
  'os',
  'url',
  'zlib',
  'child_process',
  'worker_threads',
  'events',
  'util',
  'perf_hooks',
  'timers',
  'async_hooks',
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/coverage/**',
      '**/node_modules/**',
      '**/.turbo/**',
      '**/.wrangler/**',
      '**/bench-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportDefaultDeclaration',
          message: 'Named exports only (the Workers entry is the one exception).',
        },
      ],
    },
  },
  {
    files: ['**/*.config.ts', 'apps/edge/src/worker.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // core runs unchanged on Node, workerd, Bun, Deno and in a browser: no runtime, framework or network client.
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'core is runtime-free: no Node builtins.',
          })),
          patterns: [
            { group: ['node:*'], message: 'core is runtime-free: no node:* imports.' },
            {
              group: [
                'fastify',
                'fastify/*',
                'hono',
                'hono/*',
                '@hono/*',
                'undici',
                'undici/*',
                'axios',
                'node-fetch',
                'ws',
              ],
              message: 'core is framework- and network-client-free.',
            },
            { group: ['@infergate/*'], message: 'core imports none of our other packages.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'core reads no environment.' },
        { name: 'Buffer', message: 'core uses Uint8Array, not Buffer.' },
        { name: 'fetch', message: 'core does no I/O; call a port.' },
      ],
    },
  },
);
