import { defineConfig } from 'tsup';

export default defineConfig({
  // redis and tracing are entries of their own: the index loads them with import() only when configured.
  // wait-for-drain has no run-time import, so packages that must not depend on this one can bundle it.
  entry: ['src/index.ts', 'src/redis.ts', 'src/tracing.ts', 'src/wait-for-drain.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
