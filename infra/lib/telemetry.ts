/**
 * How the functions' spans leave Lambda (docs/adr/0011-tracing-on-opentelemetry.md): each function exports
 * OTLP/HTTP to the ADOT collector that the collector layer runs beside it as a Lambda extension, on localhost:4318;
 * the collector's `awsxray` exporter writes them to X-Ray as segments. Read by PortalFunction (CDK) and by the cold
 * import measurement (bench/lib/bundles.ts), so that what is measured loads as deployed. Free of CDK imports.
 */

/** The OTLP/HTTP receiver of the collector inside the Lambda execution environment. */
export const COLLECTOR_OTLP_ENDPOINT = 'http://localhost:4318';

/** The environment variable holding the collector's configuration, read through the collector's `env:` provider. */
export const COLLECTOR_CONFIG_VARIABLE = 'PORTAL_OTEL_COLLECTOR_CONFIG';

/**
 * The collector's configuration: OTLP over HTTP on localhost only (nothing outside the execution environment can
 * reach it), X-Ray as the destination, the caller's request id (txId) indexed as an annotation so that a trace is
 * found from an error body or a log line.
 */
export const COLLECTOR_CONFIG = [
  'receivers:',
  '  otlp:',
  '    protocols:',
  '      http:',
  "        endpoint: 'localhost:4318'",
  'exporters:',
  '  awsxray:',
  '    indexed_attributes: [portal.tx_id]',
  'service:',
  '  pipelines:',
  '    traces:',
  '      receivers: [otlp]',
  '      exporters: [awsxray]',
  '',
].join('\n');

/** What every function's environment says about tracing. */
export const FUNCTION_TELEMETRY_ENV: Readonly<Record<string, string>> = {
  OTEL_EXPORTER_OTLP_ENDPOINT: COLLECTOR_OTLP_ENDPOINT,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OPENTELEMETRY_COLLECTOR_CONFIG_URI: `env:${COLLECTOR_CONFIG_VARIABLE}`,
  [COLLECTOR_CONFIG_VARIABLE]: COLLECTOR_CONFIG,
};

/**
 * The share of the API's reads (GET routes) that are traced (docs/adr/0041-trace-sampling.md): one in twenty. Writes,
 * workers and jobs are all traced; a worker follows the request that sent its message.
 */
export const READ_TRACE_SAMPLE_RATIO = 0.05;
