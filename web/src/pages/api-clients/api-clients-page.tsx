import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import {
  API_CLIENT_SCOPES,
  formatDateTime,
  routes,
  type ApiClient,
  type ApiClientScope,
  type CreatedApiClient,
} from '@portal/shared';
import { apiCall } from '../../api/client';
import { useApi } from '../../api/use-api';
import { DecisionModal } from '../../components/decision-modal';
import { InfoModal } from '../../components/info-modal';
import { TableEmptyState } from '../../components/table-empty-state';
import { useFeedback } from '../../feedback/feedback';
import { adminMessages } from '../admin-shared/messages';
import { apiClientsMessages as text } from './messages';

const RUC = /^\d{11}$/;

/** 'Crear cliente de API': the supplier's RUC, a name and the permissions; the API answers the secret, once. */
function CreateApiClientModal(props: { onDismiss: () => void; onCreated: (client: CreatedApiClient) => void }) {
  const [taxId, setTaxId] = useState('');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<ApiClientScope>>(new Set(API_CLIENT_SCOPES));
  const invalid = !RUC.test(taxId.trim()) || name.trim() === '' || scopes.size === 0;
  const toggle = (scope: ApiClientScope, on: boolean) => {
    const next = new Set(scopes);
    if (on) next.add(scope);
    else next.delete(scope);
    setScopes(next);
  };

  return (
    <DecisionModal
      header={text.form.header}
      confirmLabel={text.form.confirm}
      invalid={invalid}
      testId="create-api-client"
      onDismiss={props.onDismiss}
      onConfirm={async () => {
        const created = await apiCall(routes.createApiClient, {
          body: { taxId: taxId.trim(), name: name.trim(), scopes: API_CLIENT_SCOPES.filter((s) => scopes.has(s)) },
        });
        props.onCreated(created);
      }}
    >
      {({ attempted }) => (
        <SpaceBetween size="m">
          <FormField
            label={text.form.taxId}
            constraintText={text.form.taxIdHint}
            errorText={attempted && !RUC.test(taxId.trim()) ? text.form.taxIdInvalid : undefined}
          >
            <Input
              value={taxId}
              inputMode="numeric"
              autoComplete={false}
              onChange={({ detail }) => setTaxId(detail.value)}
            />
          </FormField>
          <FormField
            label={text.form.name}
            constraintText={text.form.nameHint}
            errorText={attempted && name.trim() === '' ? text.form.nameRequired : undefined}
          >
            <Input value={name} autoComplete={false} onChange={({ detail }) => setName(detail.value)} />
          </FormField>
          <FormField
            label={text.form.scopes}
            errorText={attempted && scopes.size === 0 ? text.form.scopesRequired : undefined}
          >
            <SpaceBetween size="xxs">
              {API_CLIENT_SCOPES.map((scope) => (
                <Checkbox
                  key={scope}
                  checked={scopes.has(scope)}
                  onChange={({ detail }) => toggle(scope, detail.checked)}
                >
                  {text.scope(scope)}
                </Checkbox>
              ))}
            </SpaceBetween>
          </FormField>
        </SpaceBetween>
      )}
    </DecisionModal>
  );
}

/** The secret, shown this once with a copy button: the portal does not keep it. */
function SecretModal(props: { client: CreatedApiClient; onDismiss: () => void }) {
  const copy = (value: string) => (
    <CopyToClipboard
      variant="inline"
      textToCopy={value}
      copyButtonAriaLabel={text.secret.copy}
      copySuccessText={text.secret.copied}
      copyErrorText={text.secret.copyFailed}
    />
  );
  return (
    <InfoModal
      header={text.secret.header}
      onDismiss={props.onDismiss}
      closeAriaLabel={text.secret.closeIcon}
      closeText={text.secret.close}
    >
      <SpaceBetween size="m">
        <Alert type="warning">{text.secret.warning}</Alert>
        <KeyValuePairs
          columns={1}
          items={[
            { label: text.secret.clientId, value: copy(props.client.clientId) },
            {
              label: text.secret.clientSecret,
              value: <span data-testid="api-client-secret">{copy(props.client.clientSecret)}</span>,
            },
            { label: text.secret.tokenUrl, value: copy(props.client.tokenUrl) },
          ]}
        />
      </SpaceBetween>
    </InfoModal>
  );
}

/** '/api-clients': suppliers' API clients, created and revoked by administrators. */
export default function ApiClientsPage() {
  const { data, error, isLoading, mutate } = useApi(routes.listApiClients, {});
  const feedback = useFeedback();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiClient | null>(null);
  const [revoking, setRevoking] = useState<ApiClient | null>(null);
  const items = data?.items ?? [];

  return (
    <>
      <Table
        variant="full-page"
        stickyHeader
        wrapLines
        items={error ? [] : items}
        trackBy="clientId"
        loading={isLoading}
        loadingText={text.loading}
        ariaLabels={{ tableLabel: text.title }}
        header={
          <Header
            variant="awsui-h1-sticky"
            description={text.description}
            counter={data ? `(${items.length})` : undefined}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button iconName="refresh" ariaLabel={adminMessages.refresh} onClick={() => void mutate()} />
                <Button variant="primary" onClick={() => setCreating(true)}>
                  {text.create}
                </Button>
              </SpaceBetween>
            }
          >
            {text.title}
          </Header>
        }
        columnDefinitions={[
          { id: 'name', header: text.columns.name, cell: (client) => client.name },
          {
            id: 'supplier',
            header: text.columns.supplier,
            cell: (client) => (client.supplierName ? `${client.supplierName} (${client.taxId})` : client.taxId),
          },
          { id: 'clientId', header: text.columns.clientId, cell: (client) => <code>{client.clientId}</code> },
          {
            id: 'scopes',
            header: text.columns.scopes,
            cell: (client) => client.scopes.map((scope) => text.scopeShort[scope]).join(' · '),
          },
          { id: 'created', header: text.columns.created, cell: (client) => formatDateTime(client.createdAt) },
          {
            id: 'status',
            header: text.columns.status,
            minWidth: 140,
            cell: (client) =>
              client.revokedAt === null ? (
                <StatusIndicator type="success">{text.active}</StatusIndicator>
              ) : (
                <StatusIndicator type="stopped">{text.revokedOn(formatDateTime(client.revokedAt))}</StatusIndicator>
              ),
          },
          {
            id: 'actions',
            header: '',
            minWidth: 100,
            cell: (client) =>
              client.revokedAt === null ? (
                <Button
                  variant="inline-link"
                  onClick={() => setRevoking(client)}
                  ariaLabel={`${text.revoke} ${client.name}`}
                >
                  {text.revoke}
                </Button>
              ) : null,
          },
        ]}
        empty={<TableEmptyState testId="api-clients" error={error} onRetry={mutate} message={text.empty} />}
      />
      {creating && (
        <CreateApiClientModal
          onDismiss={() => setCreating(false)}
          onCreated={(client) => {
            setCreating(false);
            setCreated(client);
            void mutate();
          }}
        />
      )}
      {created && <SecretModal client={created} onDismiss={() => setCreated(null)} />}
      {revoking && (
        <DecisionModal
          header={text.revokeConfirm.header}
          confirmLabel={text.revokeConfirm.confirm}
          testId="revoke-api-client"
          onDismiss={() => setRevoking(null)}
          onConfirm={async () => {
            await apiCall(routes.revokeApiClient, { path: { clientId: revoking.clientId } });
            feedback.success(text.revokeConfirm.done(revoking.name));
            setRevoking(null);
            void mutate();
          }}
        >
          {text.revokeConfirm.question(revoking.name, revoking.supplierName ?? revoking.taxId)}
        </DecisionModal>
      )}
    </>
  );
}
