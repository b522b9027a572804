import type { Caller } from '../../http/caller.js';
import { createInvoiceFromXml } from './create-invoice-from-xml.js';
import { createInvoiceWithoutXml } from './create-invoice-without-xml.js';
import type { IncomingFiles, IntakeDeps } from './intake-deps.js';
import { batchIntakeDeps, registerFromFiles } from './register-files.js';
import type { WithoutXmlBody } from './typed-payment.js';

/** The intake's use cases bound to one set of ports, as the unit tests call them (the handlers import each one). */
export function intakeCalls(deps: IntakeDeps) {
  return {
    fromXml: (caller: Caller, body: Parameters<typeof createInvoiceFromXml>[2]) =>
      createInvoiceFromXml(deps, caller, body),
    withoutXml: (caller: Caller, body: WithoutXmlBody) => createInvoiceWithoutXml(deps, caller, body),
    fromFiles: (caller: Caller, files: IncomingFiles) => registerFromFiles(deps, caller, files),
    forBatch: () => {
      const batch = batchIntakeDeps(deps);
      return { fromFiles: (caller: Caller, files: IncomingFiles) => registerFromFiles(batch, caller, files) };
    },
  };
}

export type IntakeCalls = ReturnType<typeof intakeCalls>;
