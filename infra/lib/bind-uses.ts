import type * as cognito from 'aws-cdk-lib/aws-cognito';
import { RUNTIME_ENV, type FunctionUses } from '@portal/shared';
import type { Data } from './constructs/data.js';
import type { Email } from './constructs/email.js';
import type { Files } from './constructs/files.js';
import type { InboundMail } from './constructs/inbound-mail.js';
import type { PortalFunction } from './constructs/portal-function.js';
import type { Queues } from './constructs/queues.js';
import type { Sap } from './constructs/sap.js';
import type { Storage } from './constructs/storage.js';
import type { Sunat } from './constructs/sunat.js';

/** Everything a function may be granted, and what it is told about each. */
export interface PortalResources {
  readonly data: Data;
  readonly storage: Storage;
  readonly files: Files;
  readonly queues: Queues;
  readonly userPool: cognito.IUserPool;
  readonly webClient: cognito.IUserPoolClient;
  readonly adminGroupName: string;
  /** The portal's origin (stage config `webOrigin`): the e-mails link to it. */
  readonly webOrigin: string;
  readonly email: Email;
  readonly sap: Sap;
  readonly sunat: Sunat;
  /** The received e-mails' bucket and the intake domain. */
  readonly inboundMail: InboundMail;
}

/**
 * Grant-and-configure from a declaration (a route's, a queue consumer's, a job's): exactly what `uses` names, each
 * grant with the environment that goes with it (functionEnvironment in shared lists the same names).
 */
export function bindUses(fn: PortalFunction, uses: FunctionUses, resources: PortalResources): void {
  if (uses.table !== 'none') resources.data.bindTable(fn, uses.table);
  if (uses.apiClientRate && uses.table !== 'write') resources.data.bindRateCounter(fn);
  const documents = uses.documents ?? [];
  if (documents.length > 0) resources.storage.bindDocuments(fn, documents);
  if (documents.includes('presignDownload') || documents.includes('exportDownload')) resources.files.bindLinks(fn);
  for (const key of new Set(uses.queues ?? [])) resources.queues.bindSend(fn, key);
  const userPool = uses.userPool ?? [];
  if (userPool.length > 0) {
    // Exactly the Cognito operations named, on this pool only.
    resources.userPool.grant(fn.role, ...userPool.map((operation) => `cognito-idp:${operation}`));
    fn.function.addEnvironment(RUNTIME_ENV.userPoolId, resources.userPool.userPoolId);
    fn.function.addEnvironment(RUNTIME_ENV.userPoolClientId, resources.webClient.userPoolClientId);
    fn.function.addEnvironment(RUNTIME_ENV.adminGroupName, resources.adminGroupName);
  }
  if (uses.email) {
    resources.email.bind(fn);
    fn.function.addEnvironment(RUNTIME_ENV.webOrigin, resources.webOrigin);
  }
  if (uses.sap) resources.sap.bind(fn);
  if (uses.sunat) resources.sunat.bind(fn);
  if (uses.inboundMail) resources.inboundMail.bind(fn);
}
