import type { RetentionExemption } from '../schemas/payment.js';
import type { Client } from '../schemas/reference.js';
import { withCheckDigit } from '../rules/ruc.js';

/**
 * The demo group both development worlds share: the local stage's seed (local/seed/parties.ts) and the web app's
 * mock provider (web/src/mock/data.ts) show the same companies and suppliers, so a screenshot of one reads like the
 * other. Fictitious names; RUCs with valid check digits.
 */

/** Cognito groups of the demo group's staff (the AWS stages' defaults too). */
export const DEMO_GROUPS = { admins: 'portal-admins', staff: 'portal-staff' } as const;

export const DEMO_CLIENTS: readonly Client[] = [
  {
    taxId: withCheckDigit('2010007097'),
    name: 'Corporación Andina de Alimentos S.A.A.',
    address: 'Av. Javier Prado Este 4200, Santiago de Surco, Lima',
    logo: null,
    system_name: 'CAA',
    // Pays its suppliers on the 15th and on the 30th (the last day of a shorter month): docs/ap-payment.md.
    paymentRunDays: [15, 30],
  },
  {
    taxId: withCheckDigit('2060341580'),
    name: 'Minera Pacífico Sur S.A.',
    address: 'Calle Los Laureles 365, San Isidro, Lima',
    logo: null,
    system_name: 'MPS',
    // Designated agente de retención del IGV by SUNAT (R.S. 037-2002/SUNAT): withholds 3 % of its suppliers' invoices.
    igvRetentionAgent: true,
  },
  {
    taxId: withCheckDigit('2051233489'),
    name: 'Transportes y Logística Inca S.A.C.',
    address: 'Av. Argentina 2150, Callao',
    logo: null,
    system_name: 'TLI',
  },
];

export interface DemoSupplier {
  readonly taxId: string;
  readonly name: string;
  /** Why the IGV is not retained from it (a buen contribuyente): docs/ap-payment.md. */
  readonly igvRetentionExemption?: RetentionExemption;
}

export const DEMO_SUPPLIERS: readonly DemoSupplier[] = [
  { taxId: withCheckDigit('2045617832'), name: 'Servicios Industriales Lima S.A.C.' },
  { taxId: withCheckDigit('2060817235'), name: 'Ferretería El Constructor E.I.R.L.' },
  {
    taxId: withCheckDigit('2049012345'),
    name: 'Consultores Tributarios Asociados S.R.L.',
    igvRetentionExemption: 'BUEN_CONTRIBUYENTE',
  },
  { taxId: withCheckDigit('1045678901'), name: 'Quispe Mamani Rosa Elena' },
];

/** A supplier SUNAT answers as NO HABIDO (the RUC risk gate). */
export const DEMO_NO_HABIDO_SUPPLIER: DemoSupplier = {
  taxId: withCheckDigit('2060477821'),
  name: 'Distribuidora Amazónica del Oriente S.A.C.',
};
