import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * One build serves every stage: nothing stage-specific is baked in, the app reads /config.json at start.
 * Pages are React.lazy imports, so each one becomes its own chunk; the vendor groups below only keep
 * the libraries every screen needs in stable, long-cached chunks.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler|swr)[\\/]/,
              priority: 3,
            },
            // The shared contract (zod schemas, catalogue, labels) that config validation and the API client use,
            // with zod's configuration, which must run before the schemas are built (config/zod-jitless.ts).
            {
              name: 'contract',
              test: /(node_modules[\\/]zod[\\/]|[\\/]shared[\\/]src[\\/]|[\\/]config[\\/]zod-jitless\.ts$)/,
              priority: 1,
            },
            {
              name: 'amplify',
              test: /node_modules[\\/](aws-amplify|@aws-amplify[\\/](?!ui)[\w-]+|@aws-crypto|@smithy|@aws-sdk)[\\/]/,
              priority: 2,
            },
          ],
        },
      },
    },
  },
  server: { port: 5173 },
  preview: { port: 4173 },
});
