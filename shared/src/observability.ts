/**
 * The product's own CloudWatch metrics (Powertools Metrics, embedded metric format): the functions emit
 * them, the alarms and the dashboard of the stateless stack read them. One definition for both sides.
 */
export const METRICS = {
  namespace: 'PortalProveedores',
  /**
   * Every product metric carries exactly these two dimensions: `service` (Powertools' default dimension)
   * valued serviceName, and `stage` valued with the stage name (RUNTIME_ENV.stage).
   */
  serviceName: 'portal-proveedores',
  stageDimension: 'stage',
  /** One per attempted call to SUNAT's validation API, and one per call that failed (transport, 5xx, auth). */
  sunatCalls: 'SunatCalls',
  sunatFailures: 'SunatFailures',
  /** One per MIRO posting attempt sent to SAP, and one per attempt that failed (transport or SAP error). */
  sapCalls: 'SapCalls',
  sapFailures: 'SapFailures',
  /** Payment sync runs against SAP, and the failed ones. */
  paymentSyncRuns: 'PaymentSyncRuns',
  paymentSyncFailures: 'PaymentSyncFailures',
  /** Received e-mails: each processed one, and those dropped unanswered for failing SPF and DKIM. */
  inboundMailProcessed: 'InboundMailProcessed',
  inboundMailUnauthenticated: 'InboundMailUnauthenticated',
} as const;
