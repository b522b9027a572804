// Bundles only (infra/lib/bundling.ts): the X-Ray SDK calls nothing of semver but `gte`.
export { default as gte } from '../../../node_modules/semver/functions/gte.js';
