import type { LocalOutputs } from '../../local/runtime/outputs.js';

/**
 * The shared stage's outputs, as tests/setup/stage-ready.ts read them once the stage was ready. This module imports
 * nothing of the tenant's: the tenant's setup reads it before the file's tenant is known.
 */
export function stageOutputs(): LocalOutputs {
  const outputs = (globalThis as typeof globalThis & { portalStageOutputs?: LocalOutputs }).portalStageOutputs;
  if (!outputs)
    throw new Error('This file runs without the shared stage (tests/setup/stage-ready.ts is not its setup)');
  return outputs;
}
