import type { SunatVerdict } from '../../adapters/sunat.js';

/** SUNAT's answer for a valid document of an active, located supplier (the unit tests' usual verdict). */
export const VALID_VERDICT: SunatVerdict = {
  certStatus: 'VALID',
  reason: null,
  estadoCp: '1',
  estadoRuc: 'ACTIVO',
  condDomiRuc: 'HABIDO',
  observaciones: [],
};
