/**
 * The RUC risk gate (docs/ap-notes-and-risk.md): SUNAT's validation of a document answers the state of
 * its issuer's RUC (estadoRuc) and the condition of its fiscal address (condDomiRuc). An invoice whose supplier SUNAT
 * does not report ACTIVO and HABIDO is not approved by a manager; an administrator may, with a written reason.
 * The values are SUNAT's labels as the SUNAT worker stores them (shared/src/sunat/catalogues.ts: RUC_STATES,
 * RUC_ADDRESS_CONDITIONS), or the code itself when SUNAT answered one the catalogue does not know.
 */

export const RUC_STATE_OK = 'ACTIVO';
export const RUC_ADDRESS_OK = 'HABIDO';

/** What SUNAT said of the supplier's RUC, when it is not ACTIVO and HABIDO. */
export interface RucRisk {
  readonly estadoRuc: string | null;
  readonly condDomiRuc: string | null;
}

/**
 * The risk SUNAT's answer shows, or null. A value SUNAT did not give (an invoice validated before the portal kept
 * it, or an answer without it) shows no risk: the gate acts on what SUNAT said, not on its silence.
 */
export function rucRiskOf(
  sunat: { readonly estadoRuc: string | null; readonly condDomiRuc: string | null } | null | undefined,
): RucRisk | null {
  if (!sunat) return null;
  const badState = sunat.estadoRuc !== null && sunat.estadoRuc !== RUC_STATE_OK;
  const badAddress = sunat.condDomiRuc !== null && sunat.condDomiRuc !== RUC_ADDRESS_OK;
  return badState || badAddress ? { estadoRuc: sunat.estadoRuc, condDomiRuc: sunat.condDomiRuc } : null;
}

/** The risk in words: «RUC BAJA DE OFICIO, domicilio NO HABIDO». */
export function rucRiskText(risk: RucRisk): string {
  return [risk.estadoRuc && `RUC ${risk.estadoRuc}`, risk.condDomiRuc && `domicilio ${risk.condDomiRuc}`]
    .filter(Boolean)
    .join(', ');
}
