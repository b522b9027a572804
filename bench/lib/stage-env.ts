/**
 * What every bench stage runs with (run.ts's and the scale suite's): errors only; the disabled-accounts check read
 * once a minute, as in AWS (the local stage's default is every second, for the tests); the scheduled jobs at AWS's
 * periods (the outbox sweeper every minute, the conformity clock every 15, not the tests' 3 and 5 s: in AWS each runs
 * in a function of its own, here in the process that serves the API, beside the requests measured); and no TTL on the
 * table (DynamoDB Local's expiry job holds the whole table for about a second every 11 s once it holds 100,000
 * invoices; AWS expires items in the background, holding nothing, and nothing measured expires).
 */
export const BENCH_STAGE_ENV: Readonly<Record<string, string>> = {
  POWERTOOLS_LOG_LEVEL: 'ERROR',
  DISABLED_USERS_TTL_SECONDS: '60',
  LOCAL_SCHEDULE_SECONDS: 'aws',
  LOCAL_DYNAMODB_TTL: 'off',
};
