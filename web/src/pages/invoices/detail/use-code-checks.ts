import { useCallback, useRef, useState } from 'react';
import {
  ERROR_MESSAGES,
  formatErrorMessage,
  routes,
  type ConformityDocument,
  type ErrorCode,
  type InvoiceDetail,
} from '@portal/shared';
import { ApiError, apiCall, errorMessage } from '../../../api/client';
import { detailMessages } from './messages';

export type CodeKind = 'PURCHASE_ORDER' | 'SERVICE_SHEET' | 'MATERIAL_DOCUMENT';

/** What the API said about one code the user entered (spec §7 availability calls: 404 = not available). */
export type CodeCheck =
  | { readonly state: 'checking' }
  /** `document`: the HES or MIGO as SAP recorded it (null for a purchase order). */
  | { readonly state: 'available'; readonly document: ConformityDocument | null }
  /** Already on this invoice: the API counts it as taken (by this invoice), so it is not asked. */
  | { readonly state: 'held' }
  | { readonly state: 'unavailable'; readonly message: string }
  | { readonly state: 'failed'; readonly message: string };

const keyOf = (kind: CodeKind, code: string) => `${kind}:${code}`;

function isCatalogued(code: string | null): code is ErrorCode {
  return code !== null && Object.hasOwn(ERROR_MESSAGES, code);
}

/** The specific reason of a 404 (unknown order, unknown HES or MIGO, used on another invoice), without txId. */
function unavailableMessage(error: ApiError, code: string): string {
  const first = error.errors[0];
  if (first && isCatalogued(first.code))
    return formatErrorMessage(first.code, { documentId: code, ...first.parameters });
  return detailMessages.form.notAvailable(code);
}

function ask(kind: CodeKind, code: string, query: { acquirer: string; issuer: string }) {
  const input = { path: { id: code }, query };
  if (kind === 'PURCHASE_ORDER') return apiCall(routes.purchaseOrderAvailability, input).then(() => null);
  if (kind === 'SERVICE_SHEET') return apiCall(routes.serviceSheetAvailability, input);
  return apiCall(routes.materialDocAvailability, input);
}

/**
 * Checks each OC, HES and MIGO code against the API as it is entered, once per code, and keeps the
 * answers for the rules that need the documents' amounts, currency, supplier and order.
 */
export function useCodeChecks(
  invoice: Pick<InvoiceDetail, 'client' | 'supplierId' | 'serviceSheets' | 'materialDocs'>,
) {
  const [checks, setChecks] = useState<ReadonlyMap<string, CodeCheck>>(() => new Map());
  const asked = useRef(new Set<string>());
  const { client, supplierId, serviceSheets, materialDocs } = invoice;

  const set = useCallback((key: string, value: CodeCheck) => {
    setChecks((current) => new Map(current).set(key, value));
  }, []);

  const check = useCallback(
    (kind: CodeKind, code: string) => {
      const key = keyOf(kind, code);
      const held =
        (kind === 'SERVICE_SHEET' && serviceSheets.includes(code)) ||
        (kind === 'MATERIAL_DOCUMENT' && materialDocs.includes(code));
      if (held) {
        set(key, { state: 'held' });
        return;
      }
      if (asked.current.has(key)) return;
      asked.current.add(key);
      set(key, { state: 'checking' });
      ask(kind, code, { acquirer: client, issuer: supplierId }).then(
        (document) => set(key, { state: 'available', document }),
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) {
            set(key, { state: 'unavailable', message: unavailableMessage(error, code) });
            return;
          }
          // A failed check may be asked again when the code is entered again.
          asked.current.delete(key);
          set(key, { state: 'failed', message: `${detailMessages.form.checkFailed} ${errorMessage(error)}` });
        },
      );
    },
    [client, supplierId, serviceSheets, materialDocs, set],
  );

  const lookup = useCallback((kind: CodeKind, code: string) => checks.get(keyOf(kind, code)), [checks]);

  return { check, lookup };
}
