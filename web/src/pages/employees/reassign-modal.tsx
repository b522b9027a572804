import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TokenGroup from '@cloudscape-design/components/token-group';
import { parseTaxIds, routes, type InternalUser } from '@portal/shared';
import { apiCall } from '../../api/client';
import { ActionModal } from '../../components/action-modal';
import { useFeedback } from '../../feedback/feedback';
import { useClients } from '../../hooks/use-clients';
import { adminMessages } from '../admin-shared/messages';
import { displayName } from '../admin-shared/user-cell';
import { employeesMessages } from './messages';

const text = employeesMessages.reassign;

/**
 * 'Reasignar': the companies of a staff account. The administrator adds and removes companies here,
 * and 'Guardar cambios' applies them: assign-client for each company added, unassign-client for each
 * removed (docs/adr/0005-user-administration.md: reassigning is assign + unassign).
 */
export function ReassignModal(props: { user: InternalUser; onDismiss: () => void; onSaved: () => void }) {
  const { user } = props;
  const feedback = useFeedback();
  const { clients, isLoading, error } = useClients();
  const original = parseTaxIds(user.taxId);
  const [assigned, setAssigned] = useState<string[]>(original);
  const [picked, setPicked] = useState<SelectProps.Option | null>(null);
  const [saving, setSaving] = useState(false);
  const name = displayName(user);

  const nameOf = (taxId: string) => clients.find((client) => client.taxId === taxId)?.name ?? taxId;
  const options: SelectProps.Option[] = clients
    .filter((client) => !assigned.includes(client.taxId))
    .map((client) => ({ value: client.taxId, label: client.name, description: client.taxId }));
  const adds = assigned.filter((taxId) => !original.includes(taxId));
  const removes = original.filter((taxId) => !assigned.includes(taxId));
  const changed = adds.length + removes.length > 0;

  const add = () => {
    if (!picked?.value) return;
    setAssigned((current) => [...current, picked.value!]);
    setPicked(null);
  };

  const save = async () => {
    setSaving(true);
    try {
      for (const client of adds) {
        await apiCall(routes.assignClientToInternalUser, { path: { userId: user.id }, query: { client } });
      }
      for (const client of removes) {
        await apiCall(routes.unassignClientFromInternalUser, { path: { userId: user.id }, query: { client } });
      }
      feedback.success(text.saved(name));
    } catch (failure) {
      // What was applied before the failure stands: the refreshed table shows it.
      feedback.error(failure);
    } finally {
      setSaving(false);
      props.onSaved();
    }
  };

  return (
    <ActionModal
      header={text.title(name)}
      busy={saving}
      onDismiss={props.onDismiss}
      action={{ text: text.save, onClick: () => void save(), disabled: !changed }}
      cancelText={adminMessages.cancel}
      closeAriaLabel={adminMessages.closeModal}
      testId="reassign-modal"
    >
      <SpaceBetween size="l">
        <Box color="text-body-secondary">{text.description(user.email)}</Box>
        <FormField label={text.assignedLabel} stretch>
          {assigned.length > 0 ? (
            <TokenGroup
              items={assigned.map((taxId) => ({
                label: nameOf(taxId),
                description: taxId,
                dismissLabel: text.removeLabel(nameOf(taxId)),
                disabled: saving,
              }))}
              onDismiss={({ detail }) =>
                setAssigned((current) => current.filter((_, index) => index !== detail.itemIndex))
              }
              alignment="vertical"
            />
          ) : (
            <Box color="text-body-secondary">{text.noneAssigned}</Box>
          )}
        </FormField>
        <FormField
          label={text.pickLabel}
          stretch
          secondaryControl={
            <Button disabled={!picked || saving} onClick={add}>
              {text.add}
            </Button>
          }
        >
          <Select
            selectedOption={picked}
            onChange={({ detail }) => setPicked(detail.selectedOption)}
            options={options}
            placeholder={options.length > 0 || isLoading ? text.pickPlaceholder : text.pickNoneLeft}
            disabled={saving || (!isLoading && !error && options.length === 0)}
            statusType={isLoading ? 'loading' : error ? 'error' : 'finished'}
            loadingText={text.clientsLoading}
            errorText={text.clientsError}
            expandToViewport
          />
        </FormField>
        <Box variant="small" color="text-body-secondary">
          <span role="status">{changed ? text.pending(adds.length, removes.length) : ''}</span>
        </Box>
      </SpaceBetween>
    </ActionModal>
  );
}
