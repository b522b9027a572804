import Box from '@cloudscape-design/components/box';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { intakeAddress, type Client } from '@portal/shared';
import { invoicesMessages } from './messages';

const text = invoicesMessages.byEmail;

/**
 * Invoices by e-mail (issue 24, docs/intake-channels.md "Correo"): each company's intake address, beside 'Cargar XML',
 * for the supplier to send its XML and PDF to. Closed until opened, so that the list stays where it was.
 */
export function MailIntakeAddresses({ domain, clients }: { domain: string; clients: readonly Client[] }) {
  if (clients.length === 0) return null;
  return (
    <ExpandableSection headerText={text.header} variant="footer">
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
    </ExpandableSection>
  );
}
