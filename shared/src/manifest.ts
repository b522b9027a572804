import * as z from 'zod';
import { LEVELS, type Level } from './domain.js';
import type { ErrorCode } from './errors/catalogue.js';
import { Empty, ErrorBody, pageOf } from './schemas/common.js';
import {
  AuditEvent,
  BulkUserResult,
  Client,
  ConformityDocument,
  CreatedExternalUser,
  DashboardCounts,
  Employee,
  ExternalUser,
  Invoice,
  InvoiceDetail,
  InvoiceSummary,
  SupplierProfile,
  UploadTicket,
  FileLink,
  InternalUser,
  Notification,
  OfficeLocation,
  PasswordResetResult,
  SessionUser,
} from './schemas/entities.js';
import {
  AssignClientQuery,
  AuditEventsQuery,
  AvailabilityPath,
  AvailabilityQuery,
  ConformityQuery,
  CreateInvoiceFromXmlBody,
  CreateExternalUserBody,
  CreateInvoiceWithoutXmlBody,
  CreateUploadBody,
  InvoiceFileQuery,
  DashboardQuery,
  DisapproveBody,
  DisapproveQuery,
  EmployeesQuery,
  ExternalUsersQuery,
  InternalUsersQuery,
  InvoiceKeyPath,
  ListInvoicesQuery,
  MarkAsReadBody,
  OfficeLocationsQuery,
  SearchSuppliersQuery,
  UpdateInvoiceBody,
  UserPath,
  WhitelistBulkBody,
  WhitelistQuery,
} from './schemas/requests.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDef {
  /** Stable identifier: names the Lambda function and the OpenAPI operation. */
  readonly id: string;
  readonly method: HttpMethod;
  /** API Gateway path syntax: /suppliers/{supplierId}/invoices. */
  readonly path: string;
  readonly summary: string;
  /** 'public' routes skip the JWT authorizer (health checks, the OpenAPI document). */
  readonly auth: 'public' | 'jwt';
  /** Levels allowed; empty for public routes. */
  readonly roles: readonly Level[];
  /**
   * Whether the caller must act for a company of its taxId list (company-id header or the first).
   * Suppliers and managers without a taxId are refused such routes.
   */
  readonly requiresCompany: boolean;
  readonly request: {
    readonly path?: z.ZodType;
    readonly query?: z.ZodType;
    readonly body?: z.ZodType;
    /** Parameters whose invalid value has a code of its own in spec §8 (instead of ERROR_INVALID_PARAMETER). */
    readonly parameterCodes?: Readonly<Partial<Record<string, ErrorCode>>>;
  };
  readonly response: z.ZodType;
  readonly successStatus: 200 | 201 | 202 | 204;
  /** Handler module under functions/src/handlers, without extension. */
  readonly handler: string;
  /**
   * What the route's function reaches beyond the table, bucket and queues every function has.
   * `userPool`: the Cognito operations it calls on the portal's user pool, needing IAM; CDK grants exactly
   * these on that pool and gives the function the pool's ids. (ForgotPassword is public: no IAM, not listed.)
   */
  readonly uses?: { readonly userPool: readonly UserPoolOperation[] };
}

/** Cognito user-pool operations a route may call with IAM credentials (`cognito-idp:<operation>`). */
export const USER_POOL_OPERATIONS = [
  'ListUsers',
  'AdminGetUser',
  'AdminCreateUser',
  'AdminUpdateUserAttributes',
  'AdminDeleteUserAttributes',
  'AdminSetUserPassword',
  'AdminDisableUser',
  'AdminEnableUser',
] as const;
export type UserPoolOperation = (typeof USER_POOL_OPERATIONS)[number];

const ALL_SIGNED_IN = ['ADMIN', 'MANAGER', 'SUPPLIER'] as const satisfies readonly Level[];
const STAFF = ['ADMIN', 'MANAGER'] as const satisfies readonly Level[];
const ADMIN_ONLY = ['ADMIN'] as const satisfies readonly Level[];
const MANAGER_ONLY = ['MANAGER'] as const satisfies readonly Level[];

/** Routes whose issue has not landed yet are served by this handler, answering 501. */
export const NOT_IMPLEMENTED_HANDLER = 'not-implemented';

function route<const R extends Omit<RouteDef, 'successStatus' | 'requiresCompany'> & Partial<RouteDef>>(
  def: R,
): R & Pick<RouteDef, 'successStatus' | 'requiresCompany'> {
  return { successStatus: 200, requiresCompany: def.auth === 'jwt', ...def };
}

/** An invoice path whose id breaks the series-number format answers the spec's own code. */
const INVOICE_ID_CODES = { invoiceId: 'ERROR_INVOICE_ID_WITH_INVALID_FORMAT' } as const;

const Health = z.object({ status: z.literal('ok'), version: z.string(), time: z.string() });

/** Every endpoint of the product, declared once (spec §7 plus GET /users/me and GET /openapi.json). */
export const routes = {
  healthcheck: route({
    id: 'healthcheck',
    method: 'GET',
    path: '/healthcheck',
    summary: 'Estado del servicio y de su base de datos',
    auth: 'public',
    roles: [],
    request: {},
    response: Health,
    handler: 'system/get-healthcheck',
  }),
  heartbeat: route({
    id: 'heartbeat',
    method: 'GET',
    path: '/heartbeat',
    summary: 'Latido: el servicio responde',
    auth: 'public',
    roles: [],
    request: {},
    response: Health,
    handler: 'system/get-heartbeat',
  }),
  openapi: route({
    id: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    summary: 'Documento OpenAPI 3.1 generado del manifiesto de rutas',
    auth: 'public',
    roles: [],
    request: {},
    response: z.record(z.string(), z.unknown()),
    handler: 'system/get-openapi',
  }),
  getCurrentUser: route({
    id: 'getCurrentUser',
    method: 'GET',
    path: '/users/me',
    summary: 'Usuario de la sesión (lo consulta la guarda de navegación)',
    auth: 'jwt',
    roles: LEVELS,
    requiresCompany: false,
    uses: { userPool: ['AdminGetUser'] },
    request: {},
    response: SessionUser,
    handler: 'users/get-current-user',
  }),
  verifySession: route({
    id: 'verifySession',
    method: 'POST',
    path: '/users/verify-session',
    summary: 'Verifica que la sesión sea válida y la sociedad activa permitida',
    auth: 'jwt',
    roles: LEVELS,
    requiresCompany: false,
    request: { body: Empty.optional() },
    response: z.object({
      valid: z.literal(true),
      expiresAt: z.string(),
      level: z.enum(LEVELS),
      activeCompany: z.string().nullable(),
      companies: z.array(z.string()),
    }),
    handler: 'users/verify-session',
  }),
  listClients: route({
    id: 'listClients',
    method: 'GET',
    path: '/clients',
    summary: 'Sociedades del grupo',
    auth: 'jwt',
    roles: ALL_SIGNED_IN,
    requiresCompany: false,
    request: {},
    response: z.object({ items: z.array(Client) }),
    handler: 'clients/list-clients',
  }),
  listInvoices: route({
    id: 'listInvoices',
    method: 'GET',
    path: '/invoices',
    summary: 'Comprobantes por sociedad, paginados y filtrados por el alcance del usuario',
    auth: 'jwt',
    roles: ALL_SIGNED_IN,
    request: { query: ListInvoicesQuery },
    response: pageOf(InvoiceSummary),
    handler: 'invoices/list-invoices',
  }),
  createInvoiceFromXml: route({
    id: 'createInvoiceFromXml',
    method: 'POST',
    path: '/invoices',
    summary: 'Registra un comprobante a partir de su XML UBL 2.1 ya cargado',
    auth: 'jwt',
    roles: ['SUPPLIER', 'ADMIN'],
    request: { body: CreateInvoiceFromXmlBody },
    response: Invoice,
    successStatus: 201,
    handler: 'invoices/create-invoice-from-xml',
  }),
  createInvoiceWithoutXml: route({
    id: 'createInvoiceWithoutXml',
    method: 'POST',
    path: '/invoices/without-xml',
    summary: 'Registra un comprobante sin XML, con su PDF',
    auth: 'jwt',
    roles: ['SUPPLIER', 'ADMIN'],
    request: { body: CreateInvoiceWithoutXmlBody, parameterCodes: { pdfUrl: 'ERROR_INVOICE_PDF_REQUIRED' } },
    response: Invoice,
    successStatus: 201,
    handler: 'invoices/create-invoice-without-xml',
  }),
  createUpload: route({
    id: 'createUpload',
    method: 'POST',
    path: '/uploads',
    summary: 'Entrega un POST prefirmado para subir un XML, un PDF o un adjunto',
    auth: 'jwt',
    roles: ALL_SIGNED_IN,
    request: { body: CreateUploadBody },
    response: UploadTicket,
    successStatus: 201,
    handler: 'uploads/create-upload',
  }),
  getInvoiceFile: route({
    id: 'getInvoiceFile',
    method: 'GET',
    path: '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}/files',
    summary: 'Enlace temporal para descargar el XML, ver el PDF o un adjunto del comprobante',
    auth: 'jwt',
    roles: ALL_SIGNED_IN,
    request: { path: InvoiceKeyPath, query: InvoiceFileQuery, parameterCodes: INVOICE_ID_CODES },
    response: FileLink,
    handler: 'invoices/get-invoice-file',
  }),
  getInvoice: route({
    id: 'getInvoice',
    method: 'GET',
    path: '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}',
    summary: 'Detalle del comprobante con su historial',
    auth: 'jwt',
    roles: ALL_SIGNED_IN,
    request: { path: InvoiceKeyPath, parameterCodes: INVOICE_ID_CODES },
    response: InvoiceDetail,
    handler: 'invoices/get-invoice',
  }),
  updateInvoice: route({
    id: 'updateInvoice',
    method: 'PUT',
    path: '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}',
    summary: 'Completa los datos del comprobante (OC, HES/MIGO, responsable, oficina)',
    auth: 'jwt',
    roles: STAFF,
    request: { path: InvoiceKeyPath, body: UpdateInvoiceBody, parameterCodes: INVOICE_ID_CODES },
    response: InvoiceDetail,
    handler: 'invoices/update-invoice',
  }),
  approveInvoice: route({
    id: 'approveInvoice',
    method: 'POST',
    path: '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}/approve',
    summary: 'Aprueba el comprobante y solicita la MIRO en SAP',
    auth: 'jwt',
    roles: STAFF,
    request: { path: InvoiceKeyPath, parameterCodes: INVOICE_ID_CODES },
    response: InvoiceDetail,
    handler: 'invoices/approve-invoice',
  }),
  disapproveInvoice: route({
    id: 'disapproveInvoice',
    method: 'POST',
    path: '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}/disapprove',
    summary: 'Rechaza el comprobante con un motivo',
    auth: 'jwt',
    roles: STAFF,
    request: {
      path: InvoiceKeyPath,
      query: DisapproveQuery,
      body: DisapproveBody,
      parameterCodes: { ...INVOICE_ID_CODES, reason: 'ERROR_DISAPPROVE_WITHOUT_REASON' },
    },
    response: InvoiceDetail,
    handler: 'invoices/disapprove-invoice',
  }),
  getDashboard: route({
    id: 'getDashboard',
    method: 'GET',
    path: '/dashboard',
    summary: 'Conteos de comprobantes por estado y por tipo',
    auth: 'jwt',
    roles: MANAGER_ONLY,
    request: { query: DashboardQuery },
    response: DashboardCounts,
    handler: 'dashboard/get-dashboard',
  }),
  listEmployees: route({
    id: 'listEmployees',
    method: 'GET',
    path: '/employees',
    summary: 'Empleados (responsables) de una sociedad',
    auth: 'jwt',
    roles: STAFF,
    request: { query: EmployeesQuery },
    response: z.object({ items: z.array(Employee) }),
    handler: 'reference/list-employees',
  }),
  listOfficeLocations: route({
    id: 'listOfficeLocations',
    method: 'GET',
    path: '/office-locations',
    summary: 'Sedes y oficinas de una sociedad',
    auth: 'jwt',
    roles: STAFF,
    request: { query: OfficeLocationsQuery },
    response: z.object({ items: z.array(OfficeLocation) }),
    handler: 'reference/list-office-locations',
  }),
  listMaterialDocs: route({
    id: 'listMaterialDocs',
    method: 'GET',
    path: '/material-docs',
    summary: 'Conformidades MIGO',
    auth: 'jwt',
    roles: STAFF,
    request: { query: ConformityQuery },
    response: pageOf(ConformityDocument),
    handler: 'conformity/list-material-docs',
  }),
  listServiceSheets: route({
    id: 'listServiceSheets',
    method: 'GET',
    path: '/service-sheets',
    summary: 'Conformidades HES',
    auth: 'jwt',
    roles: STAFF,
    request: { query: ConformityQuery },
    response: pageOf(ConformityDocument),
    handler: 'conformity/list-service-sheets',
  }),
  materialDocAvailability: route({
    id: 'materialDocAvailability',
    method: 'GET',
    path: '/material-docs/{id}/availability',
    summary: 'Disponibilidad de una MIGO (404: no disponible)',
    auth: 'jwt',
    roles: STAFF,
    request: { path: AvailabilityPath, query: AvailabilityQuery },
    response: ConformityDocument,
    handler: 'conformity/get-material-doc-availability',
  }),
  purchaseOrderAvailability: route({
    id: 'purchaseOrderAvailability',
    method: 'GET',
    path: '/purchase-orders/{id}/availability',
    summary: 'Disponibilidad de una orden de compra (404: no disponible)',
    auth: 'jwt',
    roles: STAFF,
    request: { path: AvailabilityPath, query: AvailabilityQuery },
    response: z.object({ id: z.string(), available: z.literal(true) }),
    handler: 'conformity/get-purchase-order-availability',
  }),
  serviceSheetAvailability: route({
    id: 'serviceSheetAvailability',
    method: 'GET',
    path: '/service-sheets/{id}/availability',
    summary: 'Disponibilidad de una HES (404: no disponible)',
    auth: 'jwt',
    roles: STAFF,
    request: { path: AvailabilityPath, query: AvailabilityQuery },
    response: ConformityDocument,
    handler: 'conformity/get-service-sheet-availability',
  }),
  searchSuppliers: route({
    id: 'searchSuppliers',
    method: 'GET',
    path: '/suppliers',
    summary: 'Búsqueda de proveedores por RUC o razón social (cabecera)',
    auth: 'jwt',
    roles: STAFF,
    requiresCompany: false,
    request: { query: SearchSuppliersQuery },
    response: pageOf(SupplierProfile),
    handler: 'suppliers/search-suppliers',
  }),
  listNotifications: route({
    id: 'listNotifications',
    method: 'GET',
    path: '/notifications',
    summary: 'Notificaciones recientes del usuario',
    auth: 'jwt',
    roles: ALL_SIGNED_IN,
    requiresCompany: false,
    request: {},
    response: z.object({ items: z.array(Notification) }),
    handler: 'notifications/list-notifications',
  }),
  markNotificationsAsRead: route({
    id: 'markNotificationsAsRead',
    method: 'POST',
    path: '/notifications/mark-as-read',
    summary: 'Marca como leídas las notificaciones hasta ahora',
    auth: 'jwt',
    roles: ALL_SIGNED_IN,
    requiresCompany: false,
    request: { body: MarkAsReadBody },
    response: z.object({ updated: z.number().int() }),
    handler: 'notifications/mark-notifications-as-read',
  }),
  listExternalUsers: route({
    id: 'listExternalUsers',
    method: 'GET',
    path: '/external-users',
    summary: 'Usuarios proveedores: todos, o por prefijo de correo, de RUC o de razón social',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    uses: { userPool: ['ListUsers', 'AdminGetUser'] },
    request: { query: ExternalUsersQuery },
    response: pageOf(ExternalUser),
    handler: 'users/list-external-users',
  }),
  createExternalUser: route({
    id: 'createExternalUser',
    method: 'POST',
    path: '/external-users',
    summary: 'Crea la cuenta de un proveedor y le envía la invitación con su contraseña temporal',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    uses: { userPool: ['ListUsers', 'AdminCreateUser'] },
    request: { body: CreateExternalUserBody },
    response: CreatedExternalUser,
    successStatus: 201,
    handler: 'users/create-external-user',
  }),
  resetExternalUserPassword: route({
    id: 'resetExternalUserPassword',
    method: 'POST',
    path: '/external-users/{userId}/reset-password',
    summary: 'Envía al proveedor el correo para restablecer su contraseña (o una nueva invitación)',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    uses: { userPool: ['AdminGetUser', 'AdminSetUserPassword'] },
    request: { path: UserPath },
    response: PasswordResetResult,
    successStatus: 202,
    handler: 'users/reset-external-user-password',
  }),
  disableExternalUser: route({
    id: 'disableExternalUser',
    method: 'POST',
    path: '/external-users/{userId}/disable',
    summary: 'Deshabilita la cuenta del proveedor: ya no puede iniciar sesión ni recibe correos',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    uses: { userPool: ['AdminGetUser', 'AdminDisableUser'] },
    request: { path: UserPath },
    response: ExternalUser,
    handler: 'users/disable-external-user',
  }),
  enableExternalUser: route({
    id: 'enableExternalUser',
    method: 'POST',
    path: '/external-users/{userId}/enable',
    summary: 'Vuelve a habilitar la cuenta del proveedor',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    uses: { userPool: ['AdminGetUser', 'AdminEnableUser'] },
    request: { path: UserPath },
    response: ExternalUser,
    handler: 'users/enable-external-user',
  }),
  whitelistNotifications: route({
    id: 'whitelistNotifications',
    method: 'POST',
    path: '/external-users/{userId}/whitelist-notifications',
    summary: 'Activa o desactiva la recepción de correos del proveedor',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    uses: { userPool: ['AdminGetUser', 'AdminUpdateUserAttributes'] },
    request: { path: UserPath, query: WhitelistQuery },
    response: ExternalUser,
    handler: 'users/whitelist-notifications',
  }),
  whitelistNotificationsBulk: route({
    id: 'whitelistNotificationsBulk',
    method: 'POST',
    path: '/external-users/whitelist-notifications',
    summary: 'Activa o desactiva la recepción de correos de varios proveedores (resultado por usuario)',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    uses: { userPool: ['AdminGetUser', 'AdminUpdateUserAttributes'] },
    request: { query: WhitelistQuery, body: WhitelistBulkBody },
    response: z.object({ results: z.array(BulkUserResult) }),
    handler: 'users/whitelist-notifications-bulk',
  }),
  listInternalUsers: route({
    id: 'listInternalUsers',
    method: 'GET',
    path: '/internal-users',
    summary: 'Usuarios internos (cuentas corporativas) con sus sociedades',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    uses: { userPool: ['ListUsers'] },
    request: { query: InternalUsersQuery },
    response: pageOf(InternalUser),
    handler: 'users/list-internal-users',
  }),
  assignClientToInternalUser: route({
    id: 'assignClientToInternalUser',
    method: 'POST',
    path: '/internal-users/{userId}/assign-client',
    summary: 'Asigna una sociedad a un usuario interno (se suma a las que ya tiene)',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    uses: { userPool: ['AdminGetUser', 'AdminUpdateUserAttributes'] },
    request: { path: UserPath, query: AssignClientQuery },
    response: InternalUser,
    handler: 'users/assign-client-to-internal-user',
  }),
  unassignClientFromInternalUser: route({
    id: 'unassignClientFromInternalUser',
    method: 'POST',
    path: '/internal-users/{userId}/unassign-client',
    summary: 'Retira una sociedad a un usuario interno',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    uses: { userPool: ['AdminGetUser', 'AdminUpdateUserAttributes', 'AdminDeleteUserAttributes'] },
    request: { path: UserPath, query: AssignClientQuery },
    response: InternalUser,
    handler: 'users/unassign-client-from-internal-user',
  }),
  listAuditEvents: route({
    id: 'listAuditEvents',
    method: 'GET',
    path: '/audit-events',
    summary: 'Registro de cambios hechos por los administradores, del más reciente al más antiguo',
    auth: 'jwt',
    roles: ADMIN_ONLY,
    requiresCompany: false,
    request: { query: AuditEventsQuery },
    response: pageOf(AuditEvent),
    handler: 'users/list-audit-events',
  }),
} as const satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type RouteId = keyof Routes;
export const ROUTES: readonly RouteDef[] = Object.values(routes);

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;
type InferIn<T> = T extends z.ZodType ? z.input<T> : undefined;
export type RoutePath<R extends RouteDef> = Infer<R['request']['path']>;
export type RouteQuery<R extends RouteDef> = Infer<R['request']['query']>;
export type RouteQueryInput<R extends RouteDef> = InferIn<R['request']['query']>;
export type RouteBody<R extends RouteDef> = Infer<R['request']['body']>;
export type RouteBodyInput<R extends RouteDef> = InferIn<R['request']['body']>;
export type RouteResponse<R extends RouteDef> = z.output<R['response']>;

/** Fills a route's {placeholders}: buildPath(routes.getInvoice, {supplierId, ...}). */
export function buildPath(def: RouteDef, params: Record<string, string> = {}): string {
  return def.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${def.id}`);
    return encodeURIComponent(value);
  });
}

export { ErrorBody };
