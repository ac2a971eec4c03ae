import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{src,api,storage,authz,controllers,scripts}/**/*.test.ts', 'e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: e2e files start servers and etcd; keep file-level parallelism modest.
    maxWorkers: 2,
  },
});
