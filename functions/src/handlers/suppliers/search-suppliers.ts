import { supplierRoutes } from '@portal/shared';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { httpHandler } from '../../http/wrapper.js';
import { makeSupplierDirectoryRepository } from '../../repositories/suppliers.js';
import { makeSearchSuppliers } from '../../use-cases/search-suppliers.js';

const searchSuppliers = makeSearchSuppliers({
  suppliers: makeSupplierDirectoryRepository(documentClient, tableName()),
});

export const handler = httpHandler(supplierRoutes.searchSuppliers, ({ query }) => searchSuppliers(query));
