import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from '@portal/shared';

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `npm run openapi`: writes docs/openapi.json from the route manifest (a unit test keeps it current). */
const file = path.join(ROOT_DIR, 'docs/openapi.json');
writeFileSync(file, `${JSON.stringify(buildOpenApi(), null, 2)}\n`);
console.log(`OpenAPI escrito en ${file}`);
