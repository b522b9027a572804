import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NestedStack, Stack } from 'aws-cdk-lib';
import { buildPortalApp } from './app.js';
import type { NamedTemplate } from './release-check.js';

/** A template of a stage's synthesis, with the assembly file it was written to. */
export interface StageTemplate extends NamedTemplate {
  /** File name in the cloud assembly (and in a release's record): `<stack>.template.json`, `<id>.nested.template.json`. */
  readonly file: string;
}

/**
 * Synthesizes a stage as the infra tests do, offline and without bundling the functions (their code changes at every
 * deploy; the templates are what is reviewed) and without cdk-nag (the infra tests run it), and returns every
 * template, the nested stacks' included, named by the stack a reader knows: a stack's name, or a nested stack's
 * construct path. `context` goes over the stage's (as `-c` would).
 */
export function synthesizeOffline(stage: string, context: Record<string, unknown> = {}): StageTemplate[] {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-synth-${stage}-`));
  try {
    const { app } = buildPortalApp({
      context: { ...context, stage, 'aws:cdk:bundling-stacks': [] },
      outdir,
      nag: false,
    });
    app.synth();
    return app.node
      .findAll()
      .filter((construct): construct is Stack => Stack.isStack(construct))
      .map((stack) => ({
        stack: stack instanceof NestedStack ? stack.node.path : stack.stackName,
        file: stack.templateFile,
        body: fs.readFileSync(path.join(outdir, stack.templateFile), 'utf8'),
      }));
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}
