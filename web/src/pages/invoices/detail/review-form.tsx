import { useEffect, useRef, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import Header from '@cloudscape-design/components/header';
import { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { routes, type InvoiceDetail, type RoutePath } from '@portal/shared';
import { apiCall, errorMessage } from '../../../api/client';
import { AttachmentsField } from './attachments-field';
import { detailMessages } from './messages';
import { draftOf, noteOriginalOf, reviewFeedback, type ReviewDraft } from './review-feedback';
import { useCodeChecks, type CodeKind } from './use-code-checks';
import {
  ConformityCodes,
  OfficeLocationFields,
  OperationTypeField,
  ResponsibleField,
  useAttachmentUploads,
} from './review-fields';

const text = detailMessages.form;

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
  const { uploads, uploadedKeys, onFilesChange } = useAttachmentUploads(draft.attachments.length, invoice.client);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const codeChecks = useCodeChecks(invoice);
  const { check, lookup } = codeChecks;
  const update = (change: Partial<ReviewDraft>) => setDraft((current) => ({ ...current, ...change }));
  const { formRef, operationTypeRef } = useOpeningChecks(draft, check);

  const attachments = [...draft.attachments, ...uploadedKeys];
  // A note is reviewed as an adjustment of its original: its orders are the original's, no HES or MIGO.
  const noteOriginal = noteOriginalOf(invoice);
  const feedback = reviewFeedback(invoice, { ...draft, attachments }, lookup, submitted, noteOriginal);

  const save = async () => {
    setSubmitted(true);
    setFormError(null);
    if (uploads.some((upload) => upload.state === 'uploading')) return setFormError(text.uploadPending);
    if (feedback.checking) return setFormError(text.checkPending);
    // The errors as they read once missing fields count too.
    const complete = reviewFeedback(invoice, { ...draft, attachments }, lookup, true, noteOriginal);
    const body = updateBodyOf(draft, attachments);
    if (Object.keys(complete.errors).length > 0 || !body) return setFormError(text.fixErrors);
    setSaving(true);
    try {
      onSaved(await apiCall(routes.updateInvoice, { path, body }));
    } catch (error) {
      // Spec §8's display rule, where the user is looking (the panel covers the page on a phone).
      setFormError(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

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
          <OperationTypeField
            selectRef={operationTypeRef}
            value={draft.operationType}
            errorText={feedback.errors.operationType}
            noteOriginal={noteOriginal}
            onChange={(operationType) => update({ operationType })}
          />

          <ResponsibleField
            client={invoice.client}
            responsible={draft.responsible}
            errorText={feedback.errors.responsible}
            onChange={(responsible) => update({ responsible })}
          />

          <OfficeLocationFields
            client={invoice.client}
            officeId={draft.officeId}
            locationId={draft.locationId}
            errors={feedback.errors}
            onChange={update}
          />

          <ConformityCodes
            invoice={invoice}
            path={path}
            draft={draft}
            setDraft={setDraft}
            codeChecks={codeChecks}
            feedback={feedback}
            noteOriginal={noteOriginal}
          />

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

/**
 * The codes the invoice already has are checked as if just entered (orders: their availability). «Completar datos»
 * opens the form where the person is looking: scrolled into view, its first field focused, so that nothing happens
 * out of sight (on a phone the form opens below the invoice's summary).
 */
function useOpeningChecks(draft: ReviewDraft, check: (kind: CodeKind, code: string) => void) {
  const initial = useRef(draft);
  useEffect(() => {
    initial.current.purchaseOrders.forEach((code) => check('PURCHASE_ORDER', code));
    initial.current.serviceSheets.forEach((code) => check('SERVICE_SHEET', code));
    initial.current.materialDocs.forEach((code) => check('MATERIAL_DOCUMENT', code));
  }, [check]);
  const formRef = useRef<HTMLDivElement>(null);
  const operationTypeRef = useRef<SelectProps.Ref>(null);
  useEffect(() => {
    operationTypeRef.current?.focus();
    formRef.current?.scrollIntoView?.({ block: 'start' });
  }, []);
  return { formRef, operationTypeRef };
}

/** PUT updateInvoice's body, or null while a required field is missing. */
function updateBodyOf(draft: ReviewDraft, attachments: readonly string[]) {
  const { operationType, responsible, officeId, locationId } = draft;
  if (!operationType || !responsible || !officeId || !locationId) return null;
  return {
    operationType,
    responsibleId: responsible.id,
    officeId,
    locationId,
    purchaseOrders: [...draft.purchaseOrders],
    serviceSheets: [...draft.serviceSheets],
    materialDocs: [...draft.materialDocs],
    attachments: [...attachments],
  };
}
