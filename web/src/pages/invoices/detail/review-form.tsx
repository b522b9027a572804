import { useEffect, useMemo, useRef, useState } from 'react';
import Autosuggest from '@cloudscape-design/components/autosuggest';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import {
  OPERATION_TYPES,
  OPERATION_TYPE_LABELS,
  formatMoney,
  routes,
  type InvoiceDetail,
  type OperationType,
  type RoutePath,
} from '@portal/shared';
import { apiCall, errorMessage } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { AttachmentsField, type PendingUpload } from './attachments-field';
import { CodeTokens } from './code-tokens';
import { ConformitySuggestions } from './conformity-suggestions';
import { detailMessages } from './messages';
import { draftOf, noteOriginalOf, reviewFeedback, type ReviewDraft } from './review-feedback';
import { UploadRefusedError, uploadAttachment } from './upload-attachment';
import { useCodeChecks, type CodeKind } from './use-code-checks';

const text = detailMessages.form;

/** UpdateInvoiceBody's bounds per list. */
const MAX_CODES: Record<CodeKind, number> = { PURCHASE_ORDER: 20, SERVICE_SHEET: 30, MATERIAL_DOCUMENT: 30 };
const MAX_ATTACHMENTS = 20;
const SEARCH_DELAY_MS = 250;

const OPERATION_OPTIONS: SelectProps.Option[] = OPERATION_TYPES.map((type) => ({
  value: type,
  label: OPERATION_TYPE_LABELS[type],
}));

function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

type CodeField = 'purchaseOrders' | 'serviceSheets' | 'materialDocs';

/** The invoice's key in the paths of its routes. */
type InvoicePath = RoutePath<typeof routes.getInvoice>;

/**
 * The review data of an invoice (spec §2 edit sidebar): operation type, responsible, office and
 * location, OC and HES/MIGO codes and supporting documents. Spec §5 shows as the user types
 * (shared rule functions, availability checks); saving is PUT updateInvoice.
 */
export function ReviewForm({
  invoice,
  path,
  onSaved,
  onCancel,
}: {
  readonly invoice: InvoiceDetail;
  readonly path: InvoicePath;
  readonly onSaved: (updated: InvoiceDetail) => void;
  readonly onCancel: () => void;
}) {
  const [draft, setDraft] = useState<ReviewDraft>(() => draftOf(invoice));
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { check, lookup } = useCodeChecks(invoice);
  const update = (change: Partial<ReviewDraft>) => setDraft((current) => ({ ...current, ...change }));

  // The codes the invoice already has are checked as if just entered (orders: their availability).
  const initial = useRef(draft);
  useEffect(() => {
    initial.current.purchaseOrders.forEach((code) => check('PURCHASE_ORDER', code));
    initial.current.serviceSheets.forEach((code) => check('SERVICE_SHEET', code));
    initial.current.materialDocs.forEach((code) => check('MATERIAL_DOCUMENT', code));
  }, [check]);

  // «Completar datos» opens the form where the person is looking: scrolled into view, its first field focused, so
  // that nothing happens out of sight (on a phone the form opens below the invoice's summary).
  const formRef = useRef<HTMLDivElement>(null);
  const operationTypeRef = useRef<SelectProps.Ref>(null);
  useEffect(() => {
    operationTypeRef.current?.focus();
    formRef.current?.scrollIntoView?.({ block: 'start' });
  }, []);

  const uploadedKeys = uploads.flatMap((upload) => (upload.state === 'done' && upload.key ? [upload.key] : []));
  const attachments = [...draft.attachments, ...uploadedKeys];
  // A note is reviewed as an adjustment of its original: its orders are the original's, no HES or MIGO.
  const noteOriginal = noteOriginalOf(invoice);
  const feedback = reviewFeedback(invoice, { ...draft, attachments }, lookup, submitted, noteOriginal);
  const net = invoice.amount - invoice.taxAmount;

  // Responsible: the company's active employees, narrowed by name on the server as the user types.
  const [responsibleText, setResponsibleText] = useState(draft.responsible?.fullName ?? '');
  const search = useDebounced(responsibleText.trim(), SEARCH_DELAY_MS);
  const employees = useApi(
    routes.listEmployees,
    { query: { acquirer: invoice.client, ...(search && search !== draft.responsible?.fullName ? { q: search } : {}) } },
    { revalidateOnFocus: false, keepPreviousData: true },
  );
  const employeeOptions = (employees.data?.items ?? []).map((employee) => ({
    value: employee.id,
    label: employee.fullName,
    description: employee.office,
  }));

  // Office and location: the company's office locations; an office with one location picks it.
  const locations = useApi(
    routes.listOfficeLocations,
    { query: { taxId: invoice.client } },
    { revalidateOnFocus: false },
  );
  const locationItems = useMemo(() => locations.data?.items ?? [], [locations.data]);
  const officeOptions = useMemo<SelectProps.Option[]>(
    () => [...new Set(locationItems.map((item) => item.office))].map((office) => ({ value: office, label: office })),
    [locationItems],
  );
  const locationOptions = locationItems
    .filter((item) => item.office === draft.officeId)
    .map((item) => ({ value: item.id, label: item.location }));
  const locationsStatus = locations.isLoading ? 'loading' : locations.error ? 'error' : 'finished';

  const addCode = (kind: CodeKind, field: CodeField) => (code: string) => {
    setDraft((current) => ({ ...current, [field]: [...current[field], code] }));
    check(kind, code);
  };
  const removeCode = (field: CodeField) => (code: string) =>
    setDraft((current) => ({ ...current, [field]: current[field].filter((existing) => existing !== code) }));

  // A suggestion replaces the HES and MIGO entered: §5 never takes both, and it adds up on its own.
  const applySuggestion = (kind: CodeKind, ids: readonly string[]) => {
    const field = kind === 'SERVICE_SHEET' ? 'serviceSheets' : 'materialDocs';
    setDraft((current) => ({ ...current, serviceSheets: [], materialDocs: [], [field]: [...ids] }));
    ids.forEach((id) => check(kind, id));
  };
  // Suggestions for the one purchase order entered, once the API knows it as the supplier's.
  const [onlyOrder] = draft.purchaseOrders;
  const suggestFor =
    noteOriginal === undefined &&
    draft.purchaseOrders.length === 1 &&
    onlyOrder !== undefined &&
    lookup('PURCHASE_ORDER', onlyOrder)?.state === 'available'
      ? onlyOrder
      : null;

  const onFilesChange = (files: File[]) => {
    const room = MAX_ATTACHMENTS - draft.attachments.length;
    const kept = uploads.filter((upload) => files.includes(upload.file));
    const added = files
      .filter((file) => !uploads.some((upload) => upload.file === file))
      .slice(0, Math.max(0, room - kept.length));
    setUploads([...kept, ...added.map((file) => ({ file, state: 'uploading' as const }))]);
    for (const file of added) {
      uploadAttachment(file, invoice.client).then(
        (key) => setUploads((current) => current.map((u) => (u.file === file ? { file, state: 'done', key } : u))),
        (error: unknown) => {
          const message = error instanceof UploadRefusedError ? text.uploadFailed(file.name) : errorMessage(error);
          setUploads((current) =>
            current.map((u) => (u.file === file ? { file, state: 'failed', error: message } : u)),
          );
        },
      );
    }
  };

  const save = async () => {
    setSubmitted(true);
    setFormError(null);
    if (uploads.some((upload) => upload.state === 'uploading')) return setFormError(text.uploadPending);
    if (feedback.checking) return setFormError(text.checkPending);
    // The errors as they read once missing fields count too.
    const complete = reviewFeedback(invoice, { ...draft, attachments }, lookup, true, noteOriginal);
    const { operationType, responsible, officeId, locationId } = draft;
    if (Object.keys(complete.errors).length > 0 || !operationType || !responsible || !officeId || !locationId) {
      return setFormError(text.fixErrors);
    }
    setSaving(true);
    try {
      const updated = await apiCall(routes.updateInvoice, {
        path,
        body: {
          operationType,
          responsibleId: responsible.id,
          officeId,
          locationId,
          purchaseOrders: [...draft.purchaseOrders],
          serviceSheets: [...draft.serviceSheets],
          materialDocs: [...draft.materialDocs],
          attachments,
        },
      });
      onSaved(updated);
    } catch (error) {
      // Spec §8's display rule, where the user is looking (the panel covers the page on a phone).
      setFormError(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const codeField = (kind: CodeKind, field: CodeField, label: string, shortName: string) => (
    <CodeTokens
      testId={`review-${field}`}
      label={label}
      kind={shortName}
      codes={draft[field]}
      max={MAX_CODES[kind]}
      checkOf={(code) => lookup(kind, code)}
      onAdd={addCode(kind, field)}
      onRemove={removeCode(field)}
      errorText={feedback.errors[field]}
    />
  );

  return (
    // No <form> element: Enter adds a code to the token inputs instead of submitting.
    <div data-testid="invoice-review-form" ref={formRef}>
      <Form
        header={
          <Header variant="h3" description={text.description}>
            {text.header}
          </Header>
        }
        errorText={formError}
        errorIconAriaLabel={detailMessages.form.upload.errorIcon}
        actions={
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onCancel} disabled={saving}>
              {text.cancel}
            </Button>
            <Button variant="primary" loading={saving} onClick={() => void save()}>
              {text.save}
            </Button>
          </SpaceBetween>
        }
      >
        <SpaceBetween size="m">
          {noteOriginal !== undefined && (
            <Box variant="small" color="text-body-secondary">
              <span data-testid="review-note-adjustment">{detailMessages.notes.adjustment}</span>
            </Box>
          )}
          <FormField
            label={text.operationType}
            errorText={feedback.errors.operationType}
            description={noteOriginal ? detailMessages.notes.fromOriginal(noteOriginal.id) : undefined}
            stretch
          >
            <Select
              ref={operationTypeRef}
              placeholder={text.operationTypePlaceholder}
              options={OPERATION_OPTIONS}
              selectedOption={OPERATION_OPTIONS.find((option) => option.value === draft.operationType) ?? null}
              disabled={Boolean(noteOriginal)}
              onChange={({ detail }) => update({ operationType: detail.selectedOption.value as OperationType })}
            />
          </FormField>

          <FormField
            label={text.responsible}
            errorText={feedback.errors.responsible}
            constraintText={
              draft.responsible
                ? text.responsibleSelected(draft.responsible.fullName, draft.responsible.office)
                : undefined
            }
            stretch
          >
            <Autosuggest
              value={responsibleText}
              placeholder={text.responsiblePlaceholder}
              options={employeeOptions}
              filteringType="manual"
              hideEnteredTextOption
              statusType={employees.isLoading ? 'loading' : employees.error ? 'error' : 'finished'}
              loadingText={text.responsibleLoading}
              errorText={text.responsibleError}
              empty={text.responsibleEmpty}
              enteredTextLabel={text.responsibleEntered}
              onChange={({ detail }) => {
                setResponsibleText(detail.value);
                if (draft.responsible && detail.value !== draft.responsible.fullName) update({ responsible: null });
              }}
              onSelect={({ detail }) => {
                const employee = employees.data?.items.find((item) => item.id === detail.value);
                if (!employee) return;
                update({ responsible: employee });
                setResponsibleText(employee.fullName);
              }}
            />
          </FormField>

          <FormField label={text.office} errorText={feedback.errors.office} stretch>
            <Select
              placeholder={text.officePlaceholder}
              options={officeOptions}
              selectedOption={officeOptions.find((option) => option.value === draft.officeId) ?? null}
              statusType={locationsStatus}
              loadingText={text.locationsLoading}
              errorText={text.locationsError}
              onChange={({ detail }) => {
                const office = detail.selectedOption.value ?? null;
                const only = locationItems.filter((item) => item.office === office);
                update({ officeId: office, locationId: only.length === 1 ? only[0]!.id : null });
              }}
            />
          </FormField>

          <FormField label={text.location} errorText={feedback.errors.location} stretch>
            <Select
              placeholder={text.locationPlaceholder}
              options={locationOptions}
              selectedOption={locationOptions.find((option) => option.value === draft.locationId) ?? null}
              disabled={!draft.officeId}
              statusType={locationsStatus}
              loadingText={text.locationsLoading}
              errorText={text.locationsError}
              onChange={({ detail }) => update({ locationId: detail.selectedOption.value ?? null })}
            />
          </FormField>

          {noteOriginal ? (
            <FormField
              label={text.purchaseOrders}
              description={detailMessages.notes.fromOriginal(noteOriginal.id)}
              errorText={feedback.errors.purchaseOrders}
            >
              <span data-testid="review-purchaseOrders-fixed">
                {noteOriginal.purchaseOrders.length > 0
                  ? noteOriginal.purchaseOrders.join(', ')
                  : detailMessages.values.none}
              </span>
            </FormField>
          ) : (
            codeField('PURCHASE_ORDER', 'purchaseOrders', text.purchaseOrders, 'OC')
          )}
          {suggestFor !== null && draft.operationType !== 'WITHOUT_PURCHASE_ORDER' && (
            <ConformitySuggestions
              path={path}
              purchaseOrder={suggestFor}
              operationType={draft.operationType}
              entered={[...draft.serviceSheets, ...draft.materialDocs]}
              onApply={applySuggestion}
            />
          )}
          {noteOriginal === undefined && draft.purchaseOrders.length > 1 && (
            <Box variant="small" color="text-body-secondary">
              {detailMessages.suggestions.oneOrder}
            </Box>
          )}
          {noteOriginal === undefined && codeField('SERVICE_SHEET', 'serviceSheets', text.serviceSheets, 'HES')}
          {noteOriginal === undefined && codeField('MATERIAL_DOCUMENT', 'materialDocs', text.materialDocs, 'MIGO')}
          {feedback.documentsTotal !== null && (
            <div data-testid="review-documents-total">
              <Box variant="small" color="text-body-secondary">
                {text.documentsTotal(
                  formatMoney(feedback.documentsTotal, invoice.currency),
                  formatMoney(net, invoice.currency),
                )}
              </Box>
            </div>
          )}

          <AttachmentsField
            kept={draft.attachments}
            uploads={uploads}
            onRemoveKept={(key) => update({ attachments: draft.attachments.filter((existing) => existing !== key) })}
            onFilesChange={onFilesChange}
            errorText={feedback.errors.attachments}
          />
        </SpaceBetween>
      </Form>
    </div>
  );
}
