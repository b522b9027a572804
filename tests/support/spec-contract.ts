import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The identifiers of the product specification the code must honour: the calls of its §7 (method and
 * path) and the error codes of its §8. The specification lives beside the repository
 * (../shared/spec/portal-spec.md); tests/fixtures/spec-contract.json keeps these identifiers in the
 * repository so that a clone alone passes its tests. Regenerate it with
 * `npx tsx tests/support/spec-contract.ts` when the specification changes.
 */
export interface SpecContract {
  /** Where the identifiers came from, relative to the repository. */
  readonly source: string;
  /** `METHOD /path` of every call of spec §7, "..." expanded to the invoice path. */
  readonly calls: string[];
  /** Every ERROR_* code named in spec §8. */
  readonly errorCodes: string[];
}

const ROOT = path.resolve(import.meta.dirname, '../..');
export const SPEC_FILE = path.resolve(ROOT, '../shared/spec/portal-spec.md');
export const SPEC_CONTRACT_FILE = path.join(ROOT, 'tests/fixtures/spec-contract.json');
const INVOICE_PATH = '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}';

export function extractSpecContract(spec: string): SpecContract {
  const section = (n: number) => spec.split(/^## /m).find((part) => part.startsWith(`${n}.`)) ?? '';
  const calls = [...section(7).matchAll(/^\| (GET|POST|PUT|DELETE) (\S+) \|/gm)].map(
    ([, method, p]) => `${method} ${p!.replace(/^\.\.\./, INVOICE_PATH)}`,
  );
  return {
    source: '../shared/spec/portal-spec.md',
    calls: [...new Set(calls)],
    errorCodes: [...new Set(section(8).match(/ERROR_[A-Z_]+/g))],
  };
}

export function readSpecContract(): SpecContract {
  return JSON.parse(readFileSync(SPEC_CONTRACT_FILE, 'utf8')) as SpecContract;
}

/** The specification's contract when the specification is beside the repository, else null. */
export function specContractFromSpec(): SpecContract | null {
  return existsSync(SPEC_FILE) ? extractSpecContract(readFileSync(SPEC_FILE, 'utf8')) : null;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const contract = specContractFromSpec();
  if (!contract) {
    console.error(`No está la especificación en ${SPEC_FILE}: el archivo ${SPEC_CONTRACT_FILE} queda como está.`);
    process.exit(1);
  }
  writeFileSync(SPEC_CONTRACT_FILE, `${JSON.stringify(contract, null, 2)}\n`);
  console.log(
    `${SPEC_CONTRACT_FILE}: ${contract.calls.length} llamadas y ${contract.errorCodes.length} códigos de error.`,
  );
}
