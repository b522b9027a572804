import { config } from 'zod/mini';

/*
 * Zod compiles object parsers with `new Function` unless told not to, and probes whether it may when it
 * builds the first object schema. The site's CSP has no 'unsafe-eval': the probe, though caught, is a
 * reported violation, and the compiled parsers could never be used. Jitless mode skips both. It must be
 * set before any schema is built: main.tsx imports this module first, and the build puts it in zod's own
 * chunk, which the entry imports, ahead of every chunk with shared schemas (vite.config.ts).
 */
config({ jitless: true });
