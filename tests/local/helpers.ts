import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { launchLocalStage, type LaunchedStage } from '../../local/runtime/launch.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { corporateSignIn } from '../support/corporate-sign-in.js';

/** A port the OS reports free right now on `host`. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port'))));
    });
  });
}

export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A promise with its resolver exposed, to hold a handler until the test releases it. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A document client of a stage's DynamoDB Local (a test's stage of its own). */
export function stageTable(outputs: LocalOutputs): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: outputs.region,
      endpoint: outputs.endpoints.dynamodb,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}

/** The ID token of a stage's demo account of this role: staff through the corporate IdP, suppliers by password. */
export async function demoToken(outputs: LocalOutputs, role: LocalOutputs['demoUsers'][number]['role']) {
  const user = outputs.demoUsers.find((candidate) => candidate.role === role && (role === 'ADMIN' || candidate.taxId))!;
  if (user.signIn === 'corporate') {
    const { idToken } = await corporateSignIn({
      hostedUi: outputs.cognitoEndpoint,
      clientId: outputs.userPoolClientId,
      redirectUri: `${outputs.webUrl}/login`,
      providerName: outputs.corporateIdp.providerName,
      email: user.username,
      password: user.password,
    });
    return idToken;
  }
  const cognito = new CognitoIdentityProviderClient({
    region: outputs.region,
    endpoint: outputs.cognitoEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const answer = await cognito.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: outputs.userPoolClientId,
      AuthParameters: { USERNAME: user.username, PASSWORD: user.password },
    }),
  );
  cognito.destroy();
  return answer.AuthenticationResult!.IdToken!;
}

/**
 * A test's stage of its own on its slot's ports and data directory, in a process group of its own so that kill() ends
 * it with every child at once, as a crash would; `keepData` restarts it on the data it had.
 */
export function launchOwnStage(
  slot: { readonly dataDir: string; readonly portBase: string },
  options: { readonly keepData: boolean; readonly env?: Readonly<Record<string, string>> },
): Promise<LaunchedStage> {
  return launchLocalStage({
    dataDir: slot.dataDir,
    portBase: slot.portBase,
    keepData: options.keepData,
    ownProcessGroup: true,
    env: options.env,
    startTimeoutMs: 240_000,
  });
}
