import Box from '@cloudscape-design/components/box';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import Button from '@cloudscape-design/components/button';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';
import { intakeAddress, type Client } from '@portal/shared';
import { invoicesMessages } from './messages';

const text = invoicesMessages.byEmail;

/**
 * Invoices by e-mail (docs/intake-channels.md "Correo"): each company's intake address, beside 'Cargar XML',
 * for the supplier to send its XML and PDF to. A button among the list's actions that opens them in a dialog: the
 * list's sticky header stays as short as it was (a section in it would cover the rows it scrolls to).
 */
export function MailIntakeAddresses({ domain, clients }: { domain: string; clients: readonly Client[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {/*
        There from the first paint, disabled until the companies arrive: a button that appeared with them widened the
        actions, which then wrapped and pushed the filters and the rows down (a layout shift of 0.1).
      */}
      <Button disabled={clients.length === 0} onClick={() => setOpen(true)}>
        {text.header}
      </Button>
      {/* Mounted only while open: a closed Cloudscape modal is still a dialog in the page. */}
      {open && <MailIntakeModal domain={domain} clients={clients} onDismiss={() => setOpen(false)} />}
    </>
  );
}

/** The dialog with each company's intake address, also opened from a phone's menu of upload actions. */
export function MailIntakeModal({
  domain,
  clients,
  onDismiss,
}: {
  domain: string;
  clients: readonly Client[];
  onDismiss: () => void;
}) {
  return (
    <Modal visible header={text.header} onDismiss={onDismiss}>
      <SpaceBetween size="s">
        <Box variant="p">{text.description}</Box>
        <KeyValuePairs
          columns={1}
          items={clients.map((client) => {
            const address = intakeAddress(domain, client.taxId);
            return {
              label: `${client.name} (${client.taxId})`,
              value: (
                <CopyToClipboard
                  variant="inline"
                  textToCopy={address}
                  // A 45-character address breaks at any character on a phone rather than scroll sideways.
                  textToDisplay={<span style={{ overflowWrap: 'anywhere' }}>{address}</span>}
                  copyButtonAriaLabel={`${text.copy}: ${client.name}`}
                  copySuccessText={text.copied}
                  copyErrorText={text.copyFailed}
                />
              ),
            };
          })}
        />
      </SpaceBetween>
    </Modal>
  );
}
