import FileUpload from '@cloudscape-design/components/file-upload';
import FormField from '@cloudscape-design/components/form-field';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import TokenGroup from '@cloudscape-design/components/token-group';
import { ATTACHMENT_ACCEPT } from './upload-attachment';
import { detailMessages } from './messages';

const text = detailMessages.form;

/** A file chosen in this edit: sent to the bucket at once, its key kept for the update. */
export interface PendingUpload {
  readonly file: File;
  readonly state: 'uploading' | 'done' | 'failed';
  readonly key?: string;
  readonly error?: string;
}

/** 'PDF', 'PNG', 'JPG' from a stored key, for people to tell attachments apart. */
export function attachmentKind(key: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(key.split('?')[0] ?? '')?.[1]?.toUpperCase() ?? '';
  return ext === 'JPEG' ? 'JPG' : ext;
}

/**
 * The supporting documents (spec §5: PDF required without a purchase order; PNG and JPG allowed
 * besides): the ones the invoice has, removable, and new files uploaded as soon as they are chosen.
 */
export function AttachmentsField(props: {
  readonly kept: readonly string[];
  readonly uploads: readonly PendingUpload[];
  readonly onRemoveKept: (key: string) => void;
  readonly onFilesChange: (files: File[]) => void;
  readonly errorText?: string;
}) {
  const uploading = props.uploads.filter((upload) => upload.state === 'uploading').length;
  return (
    <div data-testid="review-attachments">
      <FormField
        label={text.attachments}
        description={text.attachmentsDescription}
        constraintText={text.upload.constraint}
        errorText={props.errorText}
        stretch
      >
        <SpaceBetween size="xs">
          {props.kept.length > 0 && (
            <TokenGroup
              alignment="vertical"
              items={props.kept.map((key, index) => {
                const label = text.attachmentToken(index, attachmentKind(key));
                return { label, dismissLabel: text.remove(label) };
              })}
              onDismiss={({ detail }) => {
                const key = props.kept[detail.itemIndex];
                if (key) props.onRemoveKept(key);
              }}
            />
          )}
          <FileUpload
            multiple
            accept={ATTACHMENT_ACCEPT}
            value={props.uploads.map((upload) => upload.file)}
            onChange={({ detail }) => props.onFilesChange(detail.value)}
            fileErrors={props.uploads.map((upload) => (upload.state === 'failed' ? (upload.error ?? null) : null))}
            showFileSize
            i18nStrings={{
              uploadButtonText: text.upload.button,
              dropzoneText: text.upload.dropzone,
              removeFileAriaLabel: text.upload.remove,
              limitShowFewer: text.upload.showFewer,
              limitShowMore: text.upload.showMore,
              errorIconAriaLabel: text.upload.errorIcon,
              warningIconAriaLabel: text.upload.warningIcon,
            }}
          />
          {uploading > 0 && <StatusIndicator type="loading">{text.uploadsInProgress(uploading)}</StatusIndicator>}
        </SpaceBetween>
      </FormField>
    </div>
  );
}
