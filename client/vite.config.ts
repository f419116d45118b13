import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';

// The room server serves index.html at / and at SPA paths, assets under /assets/.
export default defineConfig({
  plugins: [preact()],
  base: '/',
  build: {
    outDir: '../jokeapp/server/static/app',
    emptyOutDir: true,
    assetsDir: 'assets',
  },
  test: {
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    // Some tests run the Python simulator in a subprocess; on a loaded machine that takes
    // seconds of wall time, so the per-test limit only catches hangs, never slowness.
    testTimeout: 120_000,
  },
});
