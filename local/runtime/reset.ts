import { rm } from 'node:fs/promises';
import { loadLocalConfig } from './config.js';

/** `npm run reset`: wipes the local stage's data; the next `npm start` provisions and seeds anew. */
const { dataDir } = loadLocalConfig();
await rm(dataDir, { recursive: true, force: true });
console.log(`Datos del entorno local borrados (${dataDir}).`);
