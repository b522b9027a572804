import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The rules the repository's lint setup breaks in `code`, as if it were the file at `file`. */
async function brokenRules(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

const SENDS_A_COMMAND = `import { GetCommand } from '@aws-sdk/lib-dynamodb';\nexport const read = GetCommand;\n`;
const NAMES_TYPES = [
  `import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';`,
  `import { type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';`,
  `export type Ports = [TransactWriteItem, DynamoDBDocumentClient];`,
  '',
].join('\n');

describe('the DynamoDB boundary (lint)', () => {
  it('refuses a DynamoDB command outside the repositories', async () => {
    expect(await brokenRules('functions/src/use-cases/example.ts', SENDS_A_COMMAND)).toEqual(['no-restricted-imports']);
    expect(await brokenRules('functions/src/workers/example.ts', SENDS_A_COMMAND)).toEqual(['no-restricted-imports']);
  });

  it("lets the repositories and the client's adapter send commands, and anyone name DynamoDB's types", async () => {
    expect(await brokenRules('functions/src/repositories/example.ts', SENDS_A_COMMAND)).toEqual([]);
    expect(await brokenRules('functions/src/adapters/dynamodb.ts', SENDS_A_COMMAND)).toEqual([]);
    expect(await brokenRules('functions/src/use-cases/example.ts', NAMES_TYPES)).toEqual([]);
  });
});
