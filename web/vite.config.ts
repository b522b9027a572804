import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import {
  appLayoutVisualRefreshOnly,
  cloudscapeFontsAsFiles,
  cloudscapeMessagesInUse,
  firstScreenChunks,
  staticFrame,
} from './build-plugins';
import { MOCK_MODE, mockProvider } from './mock-plugin';

/**
 * One build serves every stage: nothing stage-specific is baked in, the app reads /config.json at start.
 * Pages are React.lazy imports, so each one becomes its own chunk; the vendor groups below only keep
 * the libraries every screen needs in stable, long-cached chunks. Amplify has no group: its sign-in flows
 * (SRP and its big-number arithmetic) then stay with the login screen instead of the first chunk.
 * The manifest (.vite/manifest.json) tells the size budgets (bench/lib/web-sizes.ts) what loads when.
 * `vite --mode mock` (npm run start:web-mock) serves the app on the mock provider, with no stage: docs/web-mock.md.
 */
const FIRST_SCREEN = firstScreenChunks(fileURLToPath(new URL('./src', import.meta.url)), {
  firstScreen: 'pages/invoices/invoices-page.tsx',
  signIn: 'pages/login/login-page.tsx',
  skip: ['mock/browser.ts'],
  apart: /node_modules[\\/](aws-amplify|@aws-amplify)[\\/]/,
});

export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    react(),
    appLayoutVisualRefreshOnly(),
    cloudscapeMessagesInUse(fileURLToPath(new URL('./src', import.meta.url))),
    cloudscapeFontsAsFiles(),
    // After the fonts: the frame's stylesheet names their files.
    staticFrame(fileURLToPath(new URL('./frame', import.meta.url))),
    ...(mode === MOCK_MODE ? [mockProvider()] : []),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 900,
    // One stylesheet for the whole app: Cloudscape's CSS split per chunk made the invoices screen fetch about 45
    // small files (113 KB of gzip) before it could render, each a round trip on a phone's network; together they
    // are 105 KB, linked from index.html and cached for every screen (docs/web-performance.md).
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler|swr)[\\/]/,
              priority: 3,
            },
            // zod with its configuration, which must run before any schema is built (config/zod-jitless.ts): the
            // entry's one static import, so that the entry's body runs without evaluating the schemas first.
            {
              name: 'zod',
              test: /(node_modules[\\/]zod[\\/]|[\\/]config[\\/]zod-jitless\.ts$)/,
              priority: 2,
            },
            // The shared contract (zod schemas, catalogue, labels) that config validation and the API client use.
            { name: 'contract', test: /[\\/]shared[\\/]src[\\/]/, priority: 1 },
            // The rest of what runs at start, and what the first screen needs besides its own chunk: two files
            // instead of about 65 (docs/web-performance.md). Their modules' own imports are members already, or
            // the entry's, which stay there.
            { name: FIRST_SCREEN.start, includeDependenciesRecursively: false },
            { name: FIRST_SCREEN.screenKit, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: { port: 5173 },
  preview: { port: 4173 },
}));
