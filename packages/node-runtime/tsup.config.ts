import { defineConfig } from 'tsup';

export default defineConfig({
  // redis and tracing are entries of their own: the index loads them with import() only when configured.
  entry: ['src/index.ts', 'src/redis.ts', 'src/tracing.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
