import type { ReactNode } from 'react';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { Client } from '@portal/shared';
import { FiltersToggle } from './invoice-filters';
import { MailIntakeAddresses } from './mail-intake';
import { invoicesMessages } from './messages';
import { XmlUploadButton, XmlUploadProgress, type useXmlUpload } from './xml-upload';
import { ZipUploadButton, zipMessages, type useZipUpload } from './zip-upload';

const text = invoicesMessages;

export interface HeaderActionsProps {
  readonly narrow: boolean;
  readonly refreshing: boolean;
  readonly onRefresh: () => void;
  readonly exportButton: ReactNode;
  /** A phone's 'Filtros' button: whether the filters show, the region it controls and how many apply. */
  readonly filters: { shown: boolean; onShownChange: (shown: boolean) => void; controls: string; active: number };
  readonly canSubmit: boolean;
  readonly onNewInvoice: () => void;
}

/**
 * Beside the title on a laptop (one row less above the list); on a phone, under the description, with the button
 * the filters wait behind (a row of its own would push the third invoice off the first screen).
 */
export function HeaderActions(props: HeaderActionsProps) {
  const { narrow } = props;
  return (
    <SpaceBetween direction="horizontal" size="xs">
      <Button iconName="refresh" ariaLabel={text.refresh} loading={props.refreshing} onClick={props.onRefresh} />
      {props.exportButton}
      {narrow && <FiltersToggle {...props.filters} />}
      {props.canSubmit &&
        (narrow ? (
          // Its icon alone on a phone, so that the actions keep one row and three invoices stay on the first screen.
          <Button variant="primary" iconName="add-plus" ariaLabel={text.create.button} onClick={props.onNewInvoice} />
        ) : (
          <Button variant="primary" iconName="add-plus" onClick={props.onNewInvoice}>
            {text.create.button}
          </Button>
        ))}
    </SpaceBetween>
  );
}

export interface InvoicesHeaderProps {
  readonly title: string;
  readonly counter: string | undefined;
  readonly narrow: boolean;
  readonly actions: ReactNode;
  /** 'Cargar XML', 'Cargar ZIP' and the rest of the upload actions, for suppliers and admins. */
  readonly canSubmit: boolean;
  readonly upload: ReturnType<typeof useXmlUpload>;
  readonly zip: ReturnType<typeof useZipUpload>;
  readonly intakeMailDomain: string | null;
  readonly clients: readonly Client[];
  /** The intake addresses opened from a phone's menu of upload actions. */
  readonly onShowIntake: () => void;
  readonly exportAlert: ReactNode;
}

/** What the table and a phone's cards share above the list: the title and its counter, the actions and alerts. */
export function InvoicesHeader(props: InvoicesHeaderProps) {
  const { narrow, title, counter, upload, zip } = props;
  return (
    <SpaceBetween size="s">
      {/* Title and description first, at every width, then the actions: the description stays where index.html's
          frame paints it (web/frame/, docs/web-performance.md), whatever actions the level has. */}
      <Header
        variant="awsui-h1-sticky"
        counter={narrow ? undefined : counter}
        description={narrow ? text.descriptionPhone : text.description}
        actions={narrow ? undefined : props.actions}
      >
        {narrow ? (
          // On a phone the count has a line of its own, kept while it loads: however long it is («(más de
          // 1,000)»), it never wraps the title, and the description stays where the frame paints it. The line is
          // the one the description's sorting sentence took, which cards have no columns for.
          <>
            {title} <span className="invoices-phone-count">{counter ?? '\u00a0'}</span>
          </>
        ) : (
          title
        )}
      </Header>
      {narrow && props.actions}
      {props.canSubmit && (
        <SpaceBetween direction="horizontal" size="xs">
          <XmlUploadButton busy={upload.state !== null} onFiles={(files) => void upload.upload(files)} />
          <ZipUploadButton busy={zip.busy} onFile={zip.upload} />
          {narrow ? (
            // One row on a phone, not three: the rest of the upload actions wait in a menu, so that the first
            // screen still shows three invoices under a supplier's longer header.
            <ButtonDropdown
              variant="icon"
              ariaLabel={text.moreUploads}
              expandToViewport
              items={[
                { id: 'zip-history', text: zipMessages.history },
                ...(props.intakeMailDomain
                  ? [{ id: 'mail-intake', text: text.byEmail.header, disabled: props.clients.length === 0 }]
                  : []),
              ]}
              onItemClick={({ detail }) => {
                if (detail.id === 'zip-history') zip.openHistory();
                else props.onShowIntake();
              }}
            />
          ) : (
            <>
              <Button onClick={zip.openHistory}>{zipMessages.history}</Button>
              {props.intakeMailDomain && (
                <MailIntakeAddresses domain={props.intakeMailDomain} clients={props.clients} />
              )}
            </>
          )}
        </SpaceBetween>
      )}
      {upload.state && <XmlUploadProgress state={upload.state} />}
      {zip.alert}
      {props.exportAlert}
    </SpaceBetween>
  );
}
