import { useMemo, useState, type RefObject } from 'react';
import Autosuggest from '@cloudscape-design/components/autosuggest';
import Box from '@cloudscape-design/components/box';
import FormField from '@cloudscape-design/components/form-field';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import {
  OPERATION_TYPES,
  OPERATION_TYPE_LABELS,
  formatMoney,
  routes,
  type OperationType,
  type InvoiceDetail,
  type Employee,
  type NoteOriginalFacts,
  type RoutePath,
} from '@portal/shared';
import { errorMessage } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { employeeOption } from '../../../components/employee-option';
import { useDebounced } from '../../../hooks/use-debounced';
import type { PendingUpload } from './attachments-field';
import { CodeTokens } from './code-tokens';
import { ConformitySuggestions } from './conformity-suggestions';
import { detailMessages } from './messages';
import type { ReviewDraft, ReviewFeedback } from './review-feedback';
import { UploadRefusedError, uploadAttachment } from './upload-attachment';
import type { CodeCheck, CodeKind } from './use-code-checks';

const text = detailMessages.form;

/** UpdateInvoiceBody's bounds per list. */
const MAX_CODES: Record<CodeKind, number> = { PURCHASE_ORDER: 20, SERVICE_SHEET: 30, MATERIAL_DOCUMENT: 30 };
const MAX_ATTACHMENTS = 20;
const SEARCH_DELAY_MS = 250;

const OPERATION_OPTIONS: SelectProps.Option[] = OPERATION_TYPES.map((type) => ({
  value: type,
  label: OPERATION_TYPE_LABELS[type],
}));

/** The operation type; a note's is its original's. */
export function OperationTypeField({
  selectRef,
  value,
  errorText,
  noteOriginal,
  onChange,
}: {
  selectRef: RefObject<SelectProps.Ref | null>;
  value: OperationType | null;
  errorText: string | undefined;
  noteOriginal: NoteOriginalFacts | null | undefined;
  onChange: (operationType: OperationType) => void;
}) {
  return (
    <FormField
      label={text.operationType}
      errorText={errorText}
      description={noteOriginal ? detailMessages.notes.fromOriginal(noteOriginal.id) : undefined}
      stretch
    >
      <Select
        ref={selectRef}
        placeholder={text.operationTypePlaceholder}
        options={OPERATION_OPTIONS}
        selectedOption={OPERATION_OPTIONS.find((option) => option.value === value) ?? null}
        disabled={Boolean(noteOriginal)}
        onChange={({ detail }) => onChange(detail.selectedOption.value as OperationType)}
      />
    </FormField>
  );
}

/** Responsible: the company's active employees, narrowed by name on the server as the user types. */
export function ResponsibleField({
  client,
  responsible,
  errorText,
  onChange,
}: {
  client: string;
  responsible: Employee | null;
  errorText: string | undefined;
  onChange: (responsible: Employee | null) => void;
}) {
  const [responsibleText, setResponsibleText] = useState(responsible?.fullName ?? '');
  const search = useDebounced(responsibleText.trim(), SEARCH_DELAY_MS);
  const employees = useApi(
    routes.listEmployees,
    { query: { acquirer: client, ...(search && search !== responsible?.fullName ? { q: search } : {}) } },
    { revalidateOnFocus: false, keepPreviousData: true },
  );
  const employeeOptions = (employees.data?.items ?? []).map(employeeOption);
  return (
    <FormField
      label={text.responsible}
      errorText={errorText}
      constraintText={responsible ? text.responsibleSelected(responsible.fullName, responsible.office) : undefined}
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
          if (responsible && detail.value !== responsible.fullName) onChange(null);
        }}
        onSelect={({ detail }) => {
          const employee = employees.data?.items.find((item) => item.id === detail.value);
          if (!employee) return;
          onChange(employee);
          setResponsibleText(employee.fullName);
        }}
      />
    </FormField>
  );
}

/** Office and location: the company's office locations; an office with one location picks it. */
export function OfficeLocationFields({
  client,
  officeId,
  locationId,
  errors,
  onChange,
}: {
  client: string;
  officeId: string | null;
  locationId: string | null;
  errors: ReviewFeedback['errors'];
  onChange: (change: Pick<ReviewDraft, 'locationId'> & Partial<Pick<ReviewDraft, 'officeId'>>) => void;
}) {
  const locations = useApi(routes.listOfficeLocations, { query: { taxId: client } }, { revalidateOnFocus: false });
  const locationItems = useMemo(() => locations.data?.items ?? [], [locations.data]);
  const officeOptions = useMemo<SelectProps.Option[]>(
    () => [...new Set(locationItems.map((item) => item.office))].map((office) => ({ value: office, label: office })),
    [locationItems],
  );
  const locationOptions = locationItems
    .filter((item) => item.office === officeId)
    .map((item) => ({ value: item.id, label: item.location }));
  const locationsStatus = locations.isLoading ? 'loading' : locations.error ? 'error' : 'finished';
  return (
    <>
      <FormField label={text.office} errorText={errors.office} stretch>
        <Select
          placeholder={text.officePlaceholder}
          options={officeOptions}
          selectedOption={officeOptions.find((option) => option.value === officeId) ?? null}
          statusType={locationsStatus}
          loadingText={text.locationsLoading}
          errorText={text.locationsError}
          onChange={({ detail }) => {
            const office = detail.selectedOption.value ?? null;
            const only = locationItems.filter((item) => item.office === office);
            onChange({ officeId: office, locationId: only.length === 1 ? only[0]!.id : null });
          }}
        />
      </FormField>

      <FormField label={text.location} errorText={errors.location} stretch>
        <Select
          placeholder={text.locationPlaceholder}
          options={locationOptions}
          selectedOption={locationOptions.find((option) => option.value === locationId) ?? null}
          disabled={!officeId}
          statusType={locationsStatus}
          loadingText={text.locationsLoading}
          errorText={text.locationsError}
          onChange={({ detail }) => onChange({ locationId: detail.selectedOption.value ?? null })}
        />
      </FormField>
    </>
  );
}

/** The supporting documents chosen in this edit, each uploaded as soon as it is added (up to 20 in all). */
export function useAttachmentUploads(kept: number, client: string) {
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const onFilesChange = (files: File[]) => {
    const room = MAX_ATTACHMENTS - kept;
    const stay = uploads.filter((upload) => files.includes(upload.file));
    const added = files
      .filter((file) => !uploads.some((upload) => upload.file === file))
      .slice(0, Math.max(0, room - stay.length));
    setUploads([...stay, ...added.map((file) => ({ file, state: 'uploading' as const }))]);
    for (const file of added) {
      uploadAttachment(file, client).then(
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
  const uploadedKeys = uploads.flatMap((upload) => (upload.state === 'done' && upload.key ? [upload.key] : []));
  return { uploads, uploadedKeys, onFilesChange };
}

type CodeField = 'purchaseOrders' | 'serviceSheets' | 'materialDocs';

/**
 * The OC, HES and MIGO codes, each checked as it is entered, with the suggested conformities of the one order and
 * the documents' total. A note takes its original's orders and has no HES or MIGO.
 */
export function ConformityCodes({
  invoice,
  path,
  draft,
  setDraft,
  codeChecks: { check, lookup },
  feedback,
  noteOriginal,
}: {
  invoice: Pick<InvoiceDetail, 'amount' | 'taxAmount' | 'currency'>;
  path: RoutePath<typeof routes.getInvoice>;
  draft: ReviewDraft;
  setDraft: (update: (current: ReviewDraft) => ReviewDraft) => void;
  /** The codes' availability checks (useCodeChecks). */
  codeChecks: {
    check: (kind: CodeKind, code: string) => void;
    lookup: (kind: CodeKind, code: string) => CodeCheck | undefined;
  };
  feedback: ReviewFeedback;
  noteOriginal: NoteOriginalFacts | null | undefined;
}) {
  const { currency } = invoice;
  const net = invoice.amount - invoice.taxAmount;
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
    <>
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
            {text.documentsTotal(formatMoney(feedback.documentsTotal, currency), formatMoney(net, currency))}
          </Box>
        </div>
      )}
    </>
  );
}
