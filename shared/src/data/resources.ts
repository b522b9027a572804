import type { FunctionUses, QueueKey } from '../access.js';

/**
 * Buckets and queues, with the environment variable through which each reaches the functions.
 * CDK creates them from here; the local stage creates the same names on its stand-ins.
 */
export interface QueueDef {
  readonly id: string;
  readonly purpose: string;
  readonly env: string;
  /** Seconds a received message stays invisible; at least six times the consumer's timeout. */
  readonly visibilityTimeoutSeconds: number;
  /** Receives before a message is moved to the queue's DLQ. */
  readonly maxReceiveCount: number;
  readonly batchSize: number;
  /** Worker module under functions/src/workers, or null until its consumer lands. */
  readonly consumer: string | null;
  readonly consumerTimeoutSeconds: number;
  /** What the consumer touches besides consuming its queue (see FunctionUses). */
  readonly consumerUses: FunctionUses;
  /** The consumer's memory (MB); 512 when absent. */
  readonly consumerMemoryMb?: number;
  /** The consumer's /tmp (MB, Lambda's ephemeral storage); 512 when absent. */
  readonly consumerTmpMb?: number;
  /** Instances of the consumer at most (reserved concurrency); unbounded (the account's) when absent. */
  readonly consumerReservedConcurrency?: number;
}

export const QUEUES = {
  sunatValidation: {
    id: 'SunatValidation',
    purpose: 'Validación de comprobantes en SUNAT',
    env: 'SUNAT_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    consumer: 'sunat-validation' as string | null,
    consumerTimeoutSeconds: 30,
    // Asks SUNAT, records the verdict and the supplier's notice (outbox).
    consumerUses: { table: 'write', queues: ['notifications'], sunat: true },
  },
  miroRequests: {
    id: 'MiroRequests',
    purpose: 'Solicitudes de MIRO a SAP',
    env: 'MIRO_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 5,
    consumer: 'miro-requests' as string | null,
    consumerTimeoutSeconds: 30,
    // Posts the MIRO to SAP, records the document and notifies the supplier.
    consumerUses: { table: 'write', queues: ['notifications'], sap: true },
  },
  notifications: {
    id: 'Notifications',
    purpose: 'Notificaciones y correos',
    env: 'NOTIFICATIONS_QUEUE_URL',
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    batchSize: 10,
    consumer: 'notifications' as string | null,
    consumerTimeoutSeconds: 20,
    // Writes the feeds, then e-mails those whose reception is enabled.
    consumerUses: { table: 'write', email: true },
  },
  /**
   * Exports of a list (docs/adr/0032-list-exports.md): one job per message, streamed to S3. A file of
   * 100,000 rows takes about a minute; the visibility timeout is six times the consumer's.
   */
  exports: {
    id: 'Exports',
    purpose: 'Exportación de listas a XLSX o CSV',
    env: 'EXPORTS_QUEUE_URL',
    visibilityTimeoutSeconds: 1800,
    maxReceiveCount: 3,
    batchSize: 1,
    consumer: 'exports' as string | null,
    consumerTimeoutSeconds: 300,
    // Reads the list as its requester would (the suppliers' accounts are Cognito's), writes the file under
    // exports/, and the job's progress and the requester's notice in the table.
    consumerUses: { table: 'write', documents: ['exportWrite'], userPool: ['ListUsers', 'AdminGetUser'] },
  },
  /**
   * Invoices by e-mail (docs/adr/0035-mail-intake.md): one received e-mail per message, its raw MIME under
   * inbound-mail/ of the inbound-mail bucket (SES's receipt rule in AWS, the local SMTP server on the stage).
   */
  inboundMail: {
    id: 'InboundMail',
    purpose: 'Comprobantes recibidos por correo',
    env: 'INBOUND_MAIL_QUEUE_URL',
    // An e-mail may carry a zip of hundreds of documents, each registered in turn.
    visibilityTimeoutSeconds: 1800,
    maxReceiveCount: 5,
    batchSize: 1,
    consumer: 'inbound-mail' as string | null,
    consumerTimeoutSeconds: 300,
    // Registers each document as 'Cargar XML' does (the documents bucket, SUNAT's and the notices' queues), finds
    // the sender's account in the user pool, answers by e-mail and deletes the raw message.
    consumerUses: {
      table: 'write',
      // presignUpload is s3:PutObject on the bucket: the documents' files are written by the intake (fromFiles).
      documents: ['read', 'delete', 'presignUpload'],
      queues: ['sunatValidation', 'notifications'],
      userPool: ['ListUsers'],
      email: true,
      inboundMail: true,
    },
  },
  /**
   * 'Cargar ZIP' (docs/intake-channels.md#zip): one zip of up to 500 documents per message. The zip (at most
   * 200 MB) is streamed to /tmp and read one document at a time, a few registered at once; 500 documents aim at a
   * minute, the timeout leaves ten. A redelivery skips the documents already recorded.
   */
  intakeBatches: {
    id: 'IntakeBatches',
    purpose: 'Carga de comprobantes en ZIP',
    env: 'INTAKE_BATCHES_QUEUE_URL',
    visibilityTimeoutSeconds: 3600,
    maxReceiveCount: 3,
    batchSize: 1,
    consumer: 'intake-batches' as string | null,
    consumerTimeoutSeconds: 600,
    // Reads and deletes the zip, registers each document as the intake does (stores its files as the uploader's
    // uploads with s3:PutObject, reads them back, deletes refused ones, commits the invoice with its SUNAT check and
    // notice), records the results and e-mails the uploader.
    consumerUses: {
      table: 'write',
      documents: ['read', 'delete', 'presignUpload'],
      queues: ['sunatValidation', 'notifications'],
      email: true,
    },
    consumerMemoryMb: 1024,
    consumerTmpMb: 1024,
    // A handful of zips at once: each writes hundreds of invoices; more would crowd the table and SUNAT's checks.
    consumerReservedConcurrency: 4,
  },
} as const satisfies Record<QueueKey, QueueDef>;

/** A job run on a timer (SCHEDULES). */
export interface ScheduleDef {
  readonly id: string;
  /** Job module under functions/src/jobs. */
  readonly handler: string;
  readonly everyMinutes: number;
  /**
   * A job run once a day at this time (UTC, 'hh:mm') instead of every `everyMinutes` (then 1440): a cron rule in
   * AWS; on the local stage a timer at that time of the real clock, and on demand through the SAP simulator.
   */
  readonly dailyAtUtc?: string;
  /** The local stage's period, when not everyMinutes. */
  readonly localEverySeconds?: number;
  /** What the job touches (see FunctionUses). */
  readonly uses: FunctionUses;
}

/**
 * Jobs run on a timer: an EventBridge rule in AWS, a timer on the local stage (functions/src/jobs/<handler>.ts)
 * every `localEverySeconds` when given (else everyMinutes).
 */
export const SCHEDULES = {
  paymentSync: {
    id: 'PaymentSync',
    handler: 'sync-payments',
    everyMinutes: 15,
    // Reads SAP's payment runs, moves the invoices and notifies their suppliers.
    uses: { table: 'write', queues: ['notifications'], sap: true },
  },
  /**
   * Drives every outbox to an end: sends again the queue messages committed but not sent, and the MIRO
   * postings still open past their lease or backoff (reading back from SAP what was posted but not recorded).
   */
  outboxSweeper: {
    id: 'OutboxSweeper',
    handler: 'sweep-outbox',
    everyMinutes: 1,
    localEverySeconds: 3,
    // Relays to every queue, asks SUNAT again through its queue, and looks MIRO postings up in SAP.
    uses: {
      table: 'write',
      queues: ['sunatValidation', 'miroRequests', 'notifications', 'exports', 'intakeBatches', 'inboundMail'],
      sap: true,
    },
  },
  /**
   * The Ley 29623 conformity clocks (docs/ap-conformity.md): the reminders two days before and on the last day, and
   * the presumed conformity once the last day ended. Every step is due at the start of a Lima day.
   */
  acquirerConformity: {
    id: 'AcquirerConformityClock',
    handler: 'run-acquirer-conformity-clock',
    everyMinutes: 15,
    localEverySeconds: 5,
    // Moves the clocks and the invoices, and sends the reminders and notices.
    uses: { table: 'write', queues: ['notifications'] },
  },
  /**
   * The staff's «Resumen diario» (docs/adr/0039-staff-daily-digest.md): at 07:00 Lima, one e-mail per staff account
   * with reception on and company whose feed had routine events in the 24 h before (what arrived, SUNAT's answers,
   * what was paid), instead of one e-mail per event.
   */
  dailyDigest: {
    id: 'DailyDigest',
    handler: 'send-daily-digest',
    everyMinutes: 1440,
    dailyAtUtc: '12:00',
    // Reads the companies, their feeds and accounts; writes the e-mails' claim marks; sends the digests.
    uses: { table: 'write', email: true },
  },
} as const satisfies Record<string, ScheduleDef>;

export const BUCKETS = {
  documents: { id: 'Documents', env: 'DOCUMENTS_BUCKET' },
  /**
   * Received e-mails as SES wrote them (raw MIME under inbound-mail/), deleted once processed; not versioned, and
   * whatever is left expires in a few days (docs/adr/0035-mail-intake.md).
   */
  inboundMail: { id: 'InboundMail', env: 'INBOUND_MAIL_BUCKET' },
} as const;

/** Physical names on the local stage (in AWS, CDK chooses them). */
export function localName(stage: string, logicalId: string): string {
  return `portal-${stage}-${logicalId}`.toLowerCase();
}
