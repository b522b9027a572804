import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SupplierProfile, keys } from '@portal/shared';
import type { Page, PageRequest } from './page.js';
import { queryIndexPage } from './query-page.js';

/** The supplier directory of the header search: one profile per RUC, in RUC or name order. */
export interface SupplierDirectoryRepository {
  listByRucPrefix(rucPrefix: string, page: PageRequest): Promise<Page<SupplierProfile>>;
  /** `namePrefix` is already normalized (normalizeForSearch), as the directory's name keys are. */
  listByNamePrefix(namePrefix: string, page: PageRequest): Promise<Page<SupplierProfile>>;
}

const parseProfile = (item: Record<string, unknown>) => SupplierProfile.parse(item);

export function makeSupplierDirectoryRepository(
  db: DynamoDBDocumentClient,
  table: string,
): SupplierDirectoryRepository {
  return {
    listByRucPrefix: (rucPrefix, page) =>
      queryIndexPage(
        db,
        table,
        {
          index: 'byClientRuc',
          partition: keys.suppliersDirectory,
          sortKeyPrefix: rucPrefix,
          descending: false,
          parse: parseProfile,
        },
        page,
      ),
    listByNamePrefix: (namePrefix, page) =>
      queryIndexPage(
        db,
        table,
        {
          index: 'byClientName',
          partition: keys.suppliersDirectory,
          sortKeyPrefix: namePrefix,
          descending: false,
          parse: parseProfile,
        },
        page,
      ),
  };
}
