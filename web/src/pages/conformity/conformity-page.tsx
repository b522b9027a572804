import { useMemo, useState } from 'react';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import type { ConformityDocument, ConformityKind } from '@portal/shared';
import { useClients } from '../../hooks/use-clients';
import { resolveActiveCompany, useChosenCompany } from '../../session/active-company';
import { useCurrentUser } from '../../session/use-current-user';
import { TableEmptyState } from '../../components/table-empty-state';
import { CursorPagination } from '../../components/cursor-pagination';
import { useListExport } from '../../components/list-export';
import { conformityColumns } from './columns';
import { ConformityFilters, NO_FILTER, appliedIssuer, type ConformityFilterInput } from './conformity-filters';
import { conformityMessages } from './messages';
import { useConformityDocuments, type ConformityFilter } from './use-conformity-documents';
import { RefreshButton } from '../../components/refresh-button';

const text = conformityMessages;

const rowKey = (doc: ConformityDocument) => `${doc.fiscalYear}#${doc.documentId}`;

/**
 * The HES and MIGO screens (spec §2): the conformity documents SAP holds for the active company
 * (the header's company menu switches it), filtered by PO responsible and issuer RUC, a page at a time.
 */
export function ConformityPage({ kind }: { kind: ConformityKind }) {
  const texts = text.kind[kind];
  const { taxIds } = useCurrentUser();
  const chosen = useChosenCompany();
  const acquirer = resolveActiveCompany(taxIds, chosen);
  const { clients } = useClients();
  const companyName = clients.find((client) => client.taxId === acquirer)?.name ?? acquirer ?? '';

  // Employees belong to one company: switching company forgets the chosen responsible (derived reset).
  const [filters, setFilters] = useState({ company: acquirer, input: NO_FILTER });
  const input: ConformityFilterInput =
    filters.company === acquirer ? filters.input : { ...filters.input, responsibleText: '', responsible: undefined };
  if (filters.company !== acquirer) setFilters({ company: acquirer, input });
  const setInput = (next: ConformityFilterInput) => setFilters({ company: acquirer, input: next });

  const issuer = appliedIssuer(input.issuerText);
  const responsible = input.responsible;
  const filter = useMemo<ConformityFilter | null>(
    () => (acquirer ? { acquirer, ...(issuer ? { issuer } : {}), ...(responsible ? { responsible } : {}) } : null),
    [acquirer, issuer, responsible],
  );
  const documents = useConformityDocuments(kind, filter);
  const listExport = useListExport(kind === 'SERVICE_SHEET' ? 'hes' : 'migo', filter);
  const columns = useMemo(() => conformityColumns(kind), [kind]);
  const filtered = Boolean(issuer || responsible);

  return (
    <Table
      variant="full-page"
      stickyHeader
      enableKeyboardNavigation
      ariaLabels={{ tableLabel: texts.tableLabel }}
      header={
        <SpaceBetween size="s">
          <Header
            variant="awsui-h1-sticky"
            description={texts.description(companyName)}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <RefreshButton ariaLabel={text.refresh} list={documents} disabled={!acquirer} />
                {listExport.button}
              </SpaceBetween>
            }
          >
            {texts.title}
          </Header>
          {listExport.alert}
        </SpaceBetween>
      }
      columnDefinitions={columns}
      items={documents.items}
      trackBy={rowKey}
      loading={documents.isLoading}
      loadingText={texts.loading}
      wrapLines={false}
      filter={acquirer ? <ConformityFilters acquirer={acquirer} value={input} onChange={setInput} /> : undefined}
      empty={
        !acquirer ? (
          <TableEmptyState message={text.noCompany} />
        ) : (
          <TableEmptyState
            testId="conformity"
            error={documents.error}
            onRetry={documents.refresh}
            message={filtered ? texts.noMatch : texts.empty}
            action={filtered ? { text: text.clearFilters, onClick: () => setInput(NO_FILTER) } : undefined}
          />
        )
      }
      pagination={<CursorPagination pages={documents} />}
    />
  );
}
