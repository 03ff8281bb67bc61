// The local backend worker from its TypeScript source (see worker-entry.ts): tsx compiles it on load.
import { tsImport } from 'tsx/esm/api';

await tsImport('./local-backend-worker.ts', import.meta.url);
