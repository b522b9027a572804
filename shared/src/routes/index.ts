// The routes by area (see manifest.ts): a function imports its own area's, not the whole manifest.
export { type HttpMethod, type RouteDef } from './route.js';
export { apiClientRoutes } from './api-clients.js';
export { acquirerConformityRoutes } from './acquirer-conformity.js';
export { clientRoutes } from './clients.js';
export { conformityRoutes } from './conformity.js';
export { conversationRoutes } from './conversations.js';
export { dashboardRoutes } from './dashboard.js';
export { exportRoutes } from './exports.js';
export { intakeBatchRoutes } from './intake-batches.js';
export { invoiceRoutes } from './invoices.js';
export { notificationRoutes } from './notifications.js';
export { referenceRoutes } from './reference.js';
export { reviewRoutes } from './review.js';
export { sessionRoutes } from './session.js';
export { supplierRoutes } from './suppliers.js';
export { systemRoutes } from './system.js';
export { uploadRoutes } from './uploads.js';
export { userAdminRoutes } from './user-admin.js';
