/**
 * Every error code the API answers with, and the Spanish message a person reads (spec §8).
 * Where the spec shows only the meaning, the message is ours; see docs/adr/0003-errors.md.
 * Messages may hold {placeholders} filled from the error's parameters.
 */
export const INVOICE_ERROR_MESSAGES = {
  ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DISTANT_AMOUNTS:
    'El monto de las conformidades (HES/MIGO) no coincide con el monto del comprobante sin IGV.',
  ERROR_INVOICE_ID_WITH_INVALID_FORMAT: 'El formato de la serie y el número del comprobante no es válido.',
  ERROR_UNEXPECTED_RESPONSE_FROM_SUNAT_VERIFICATION_SERVICE:
    'Ocurrió un error inesperado al verificar el comprobante con SUNAT. Inténtelo nuevamente más tarde.',
  ERROR_INVOICE_NOT_FOUND: 'No se encontró el comprobante solicitado.',
  ERROR_CLIENT_NOT_FOUND: 'La sociedad indicada no pertenece al grupo o no existe.',
  ERROR_EMPLOYEE_NOT_FOUND: 'El empleado no existe o ya no se encuentra activo.',
  ERROR_UPDATE_INVOICE_WITHOUT_PURCHASE_ORDERS: 'Debe ingresar el código de la orden de compra (OC).',
  ERROR_UPDATE_INVOICE_WITHOUT_CONFORMITY_DOCUMENTS: 'Debe ingresar los códigos de HES o MIGO.',
  ERROR_UPDATE_INVOICE_WITH_HES_AND_MIGO_AT_THE_SAME_TIME:
    'No es posible registrar HES y MIGO a la vez en un mismo comprobante.',
  ERROR_HES_NOT_FOUND: 'No se encontró la hoja de entrada de servicio (HES) {documentId}.',
  ERROR_MIGO_NOT_FOUND: 'No se encontró el documento de material (MIGO) {documentId}.',
  ERROR_UPDATE_INVOICE_WITH_INVALID_CERTIFICATION_STATUS:
    'Debe esperar la confirmación de validez de SUNAT antes de actualizar el comprobante.',
  ERROR_UPDATE_INVOICE_WITH_PENDING_STATUS:
    'El comprobante aún está pendiente de validación en SUNAT; inténtelo nuevamente en unos minutos.',
  ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE: 'La conformidad {documentId} ya fue utilizada en otro comprobante.',
  ERROR_CONFORMITY_DOCUMENTS_WITH_UNCOVERED_PURCHASE_ORDERS:
    'Las conformidades ingresadas no cubren todas las órdenes de compra del comprobante.',
  ERROR_PURCHASE_ORDERS_WITHOUT_CONFORMITY_DOCUMENTS: 'Hay órdenes de compra sin conformidades (HES o MIGO) asociadas.',
  ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DIFFERENT_CURRENCY:
    'La moneda de las conformidades es distinta a la moneda del comprobante.',
  ERROR_UNEXPECTED_EXCEPTION_DURING_MIRO_CREATION_REQUEST_SUBMIT:
    'Ocurrió un error inesperado al enviar la solicitud de MIRO a SAP. El equipo de soporte fue notificado.',
  ERROR_OFFICE_LOCATION_NOT_FOUND: 'No se encontró la sede u oficina indicada.',
  ERROR_APPROVE_INVOICE_WITHOUT_COMPLETED_STATUS: 'Solo se pueden aprobar comprobantes con los datos completados.',
  ERROR_DISAPPROVE_INVOICE_WITHOUT_PENDING_OR_COMPLETED_STATUS:
    'Solo se pueden rechazar comprobantes pendientes de revisión o con los datos completados.',
  ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DIFFERENT_SUPPLIER:
    'Las conformidades pertenecen a un proveedor distinto al del comprobante.',
  ERROR_USER_NOT_FOUND: 'Usuario no encontrado.',
  ERROR_ADD_HES_WITH_GOODS_OPERATION_TYPE: 'No es posible agregar HES cuando el tipo de operación es de bienes.',
  ERROR_ADD_MIGO_WITH_SERVICE_OPERATION_TYPE: 'No es posible agregar MIGO cuando el tipo de operación es de servicios.',
  ERROR_WITHOUT_PO_REQUIRES_ATTACHMENTS:
    'Para validar un comprobante sin orden de compra debe adjuntar documentos de sustento en PDF.',
  ERROR_INVOICE_ALREADY_EXISTS: 'Ya existe un comprobante con el mismo código para este proveedor.',
  ERROR_INVALID_RUC: 'El RUC {ruc} no es válido: revise sus 11 dígitos.',
  ERROR_INVOICE_PDF_REQUIRED: 'Para crear un comprobante debe adjuntar un archivo PDF.',
  ERROR_INVOICE_SUPPLIER_NOT_CALLER: 'El RUC emisor del comprobante ({ruc}) no corresponde a su empresa.',
  ERROR_UPDATE_INVOICE_NOT_EDITABLE:
    'Solo se pueden modificar comprobantes pendientes de revisión o con los datos completados.',
  ERROR_INVOICE_CHANGED_CONCURRENTLY:
    'Otra persona modificó el comprobante mientras lo editaba. Vuelva a cargarlo e inténtelo nuevamente.',
  ERROR_DISAPPROVE_WITHOUT_REASON: 'Por favor, ingrese el motivo de rechazo del comprobante.',
  ERROR_PURCHASE_ORDER_NOT_FOUND: 'No se encontró la orden de compra {documentId} para este proveedor.',
  ERROR_XML_MALFORMED: 'El archivo no es un XML válido.',
  ERROR_XML_FORBIDDEN_CONTENT:
    'El archivo XML contiene declaraciones no permitidas (DOCTYPE o entidades); envíe el XML del comprobante tal como lo emitió SUNAT.',
  ERROR_XML_TOO_LARGE: 'El archivo XML excede el límite permitido ({limit}).',
  ERROR_XML_TOO_DEEP: 'El archivo XML tiene demasiados niveles de anidamiento (máximo {limit}).',
  ERROR_XML_UNSUPPORTED_DOCUMENT:
    'El XML no corresponde a una factura, boleta, nota de crédito, nota de débito ni recibo por honorarios electrónico.',
  ERROR_XML_MISSING_FIELD: 'Falta el dato «{field}» en el XML del comprobante.',
  ERROR_XML_INVALID_FIELD: 'El dato «{field}» del XML del comprobante no tiene un valor válido.',
  ERROR_XML_UNSUPPORTED_CURRENCY:
    'La moneda {currency} no está permitida; solo se aceptan comprobantes en soles (PEN) o dólares (USD).',
  ERROR_XML_FIELD_TOO_LONG: 'El dato «{field}» del XML del comprobante excede el máximo de {limit} caracteres.',
  ERROR_XML_TOO_MANY_ITEMS: 'El XML del comprobante tiene demasiados datos «{field}» (máximo {limit}).',
  ERROR_INVOICE_AMOUNT_OUT_OF_RANGE: 'El dato «{field}» del comprobante supera el monto máximo permitido ({limit}).',
  /** Amounts the XML states that contradict each other the way SUNAT's validation refuses (docs/ap-documents.md). */
  ERROR_XML_NEGATIVE_AMOUNT: 'El dato «{field}» del XML del comprobante no puede ser negativo ({amount}).',
  ERROR_XML_INCONSISTENT_AMOUNTS:
    'Los importes del XML no cuadran: el dato «{field}» dice {stated}, pero los demás importes del comprobante dan {computed}. SUNAT no acepta un comprobante así; solicite al emisor el XML correcto.',
  ERROR_XML_ZERO_TOTAL_UNEXPLAINED:
    'El importe total del comprobante es 0.00, pero el XML no lo declara como transferencia gratuita ni como cubierto por anticipos.',
  ERROR_INVOICE_ISSUE_DATE_IN_FUTURE: 'La fecha de emisión {date} es posterior a la fecha de hoy ({today}).',
  ERROR_INVOICE_ISSUE_DATE_TOO_OLD:
    'La fecha de emisión {date} es anterior al {floor}, la fecha más antigua que el portal admite.',
  ERROR_UPLOAD_TYPE_NOT_ALLOWED: 'No se admiten archivos de tipo «{contentType}». Tipos permitidos: {allowed}.',
  ERROR_UPLOAD_TOO_LARGE: 'El archivo supera el tamaño máximo permitido de {maxSize}.',
  ERROR_UPLOAD_NOT_FOUND: 'No se encontró el archivo cargado. Vuelva a subirlo e inténtelo nuevamente.',
  ERROR_UPLOAD_CONTENT_MISMATCH:
    'El contenido del archivo no corresponde al tipo esperado ({expected}). Verifique el archivo y vuelva a subirlo.',
  ERROR_FILE_NOT_FOUND: 'El comprobante no tiene el archivo solicitado.',
  ERROR_ATTACHMENT_NOT_FOUND:
    'No se encontró el documento de sustento n.º {position}. Súbalo nuevamente desde el detalle del comprobante.',
  ERROR_ATTACHMENT_INVALID:
    'El documento de sustento n.º {position} no es un archivo {allowed} válido de hasta {maxSize}; se eliminó. Súbalo nuevamente.',
  /** Retrying the SAP posting of an invoice that has none (not approved). */
  ERROR_SAP_POSTING_NOT_FOUND:
    'El comprobante no tiene una contabilización en SAP que reintentar: solo se contabilizan los comprobantes aprobados.',
  ERROR_SAP_POSTING_ALREADY_POSTED: 'El comprobante ya está contabilizado en SAP con el documento {document}.',
  /** Asking SUNAT again (POST …/sunat-validation) about an invoice SUNAT already confirmed. */
  ERROR_SUNAT_VALIDATION_ALREADY_VALID:
    'SUNAT ya confirmó la validez del comprobante; no es necesario volver a consultarla.',
  /** Asking SUNAT again about an invoice no longer under review (a rejected one: the supplier sends it again). */
  ERROR_SUNAT_VALIDATION_NOT_UNDER_REVIEW:
    'Solo se puede volver a consultar SUNAT mientras el comprobante está pendiente de revisión («Debe revisar»).',
  // Notes tied to their original (docs/ap-notes-and-risk.md).
  ERROR_NOTE_WITHOUT_BILLING_REFERENCE:
    'Una nota de crédito o débito debe indicar el comprobante que modifica (tipo, serie y número).',
  ERROR_NOTE_BILLING_REFERENCE_INVALID:
    'El comprobante que modifica la nota ({reference}) debe ser una factura o una boleta con serie y número válidos.',
  ERROR_NOTE_WITHOUT_REASON: 'Una nota de crédito o débito debe indicar su motivo (catálogo {catalogue} de SUNAT).',
  ERROR_NOTE_REASON_NOT_IN_CATALOGUE:
    'El motivo «{code}» no está en el catálogo {catalogue} de SUNAT para una {noteType}.',
  ERROR_NOTE_ORIGINAL_OF_ANOTHER_COMPANY:
    'El comprobante {original} que modifica la nota fue emitido a otra sociedad ({company}): una nota solo modifica comprobantes del mismo adquirente.',
  ERROR_NOTE_ORIGINAL_OF_ANOTHER_SUPPLIER:
    'El comprobante {original} registrado en el portal para esta sociedad es de otro proveedor: una nota solo modifica comprobantes de su mismo emisor.',
  ERROR_NOTE_CURRENCY_DIFFERS_FROM_ORIGINAL:
    'La moneda de la nota ({currency}) no es la del comprobante que modifica, {original} ({originalCurrency}).',
  ERROR_NOTE_TOO_MANY_FOR_ORIGINAL:
    'El comprobante {original} ya tiene {limit} notas registradas, el máximo del portal.',
  ERROR_NOTE_WITH_CONFORMITY_DOCUMENTS:
    'Una nota no lleva HES ni MIGO: es un ajuste de su comprobante original, que ya las tiene.',
  ERROR_NOTE_ORIGINAL_NOT_REVIEWED:
    'Complete primero los datos del comprobante original {original}: la nota toma su tipo de operación y sus órdenes de compra.',
  ERROR_NOTE_REVIEW_NOT_ORIGINAL:
    'Una nota se revisa como ajuste de su comprobante original {original}: lleva su tipo de operación y sus órdenes de compra ({purchaseOrders}).',
  ERROR_NOTE_ORIGINAL_NOT_APPROVED:
    'Apruebe primero el comprobante original {original}: una nota se aprueba como ajuste de un comprobante aprobado.',
  ERROR_CREDIT_NOTE_EXCEEDS_AMOUNT_TO_PAY:
    'La nota de crédito ({amount}) supera el monto a pagar que queda del comprobante original {original} ({left}).',
  // The RUC risk gate.
  ERROR_APPROVE_INVOICE_WITH_RUC_RISK:
    'No se puede aprobar: SUNAT informa que el proveedor no está ACTIVO y HABIDO ({risk}). Solo un administrador puede aprobarlo, indicando el motivo.',
  ERROR_RUC_RISK_OVERRIDE_WITHOUT_REASON:
    'Indique el motivo por el que aprueba el comprobante pese al estado del RUC del proveedor.',
  ERROR_RUC_RISK_OVERRIDE_NOT_NEEDED:
    'SUNAT informa que el proveedor está ACTIVO y HABIDO: apruebe el comprobante sin excepción.',
  /** The forma de pago of a document typed without XML (docs/ap-payment.md). */
  ERROR_PAYMENT_TERMS_INVALID: 'La forma de pago no es válida: {reason}',
  /** The detracción of a document typed without XML (docs/ap-payment.md). */
  ERROR_DETRACTION_INVALID: 'La detracción no es válida: {reason}',
  /** Registering the acquirer's conformity (Ley 29623) of a document outside its scope (rules/acquirer-conformity.ts). */
  ERROR_ACQUIRER_CONFORMITY_NOT_APPLICABLE:
    'Este comprobante no está sujeto al plazo de conformidad de la Ley 29623: {reason}.',
  /** Conformity, expressed or presumed, is irrevocable (D.U. 013-2020 art. 7). */
  ERROR_ACQUIRER_CONFORMITY_IRREVOCABLE:
    'La conformidad de este comprobante ya quedó registrada ({state}, {date}) y es irrevocable (Ley 29623).',
  /** A second disconformity: after the supplier corrects the document, only conformity is registered. */
  ERROR_ACQUIRER_DISCONFORMITY_ALREADY_REGISTERED:
    'La disconformidad ya se registró el {date}. Cuando el proveedor subsane el comprobante, registre la conformidad.',
  ERROR_ACQUIRER_CONFORMITY_PERIOD_ENDED:
    'El plazo para responder venció el {deadline}: ya no puede registrarse una respuesta en SUNAT ni en el portal.',
  ERROR_ACQUIRER_DISCONFORMITY_WITHOUT_CAUSE:
    'Indique la causal de la disconformidad: plazo de pago acordado, monto neto pendiente de pago o reclamo sobre los bienes o servicios.',
  ERROR_ACQUIRER_DISCONFORMITY_WITHOUT_REASON: 'Por favor, describa el motivo de la disconformidad.',
  // Messages on an invoice (rules/conversations.ts).
  ERROR_MESSAGE_EMPTY: 'Escriba el mensaje antes de enviarlo.',
  ERROR_MESSAGE_TOO_LONG: 'El mensaje no puede superar los {max} caracteres.',
  ERROR_MESSAGE_LIMIT_REACHED:
    'La conversación de este comprobante llegó al máximo de {limit} mensajes; comuníquese por otro medio.',
  ERROR_MESSAGE_ATTACHMENT_INVALID:
    'El archivo adjunto n.º {position} no es un archivo {allowed} válido de hasta {maxSize}; se eliminó. Súbalo nuevamente.',
  ERROR_MESSAGE_ATTACHMENT_NOT_FOUND: 'No se encontró el archivo adjunto n.º {position}; súbalo nuevamente.',
  ERROR_MESSAGE_NOT_FOUND: 'No se encontró el mensaje solicitado.',
  ERROR_OBSERVE_INVOICE_CLOSED:
    'No se puede observar un comprobante {status}: la observación pide algo al proveedor mientras el comprobante sigue en curso.',
  ERROR_INVOICE_NOT_OBSERVED: 'El comprobante no está observado.',
  // Exports of the lists (docs/adr/0032-list-exports.md).
  ERROR_EXPORT_NOT_FOUND: 'No se encontró la exportación solicitada.',
  ERROR_TOO_MANY_EXPORTS: 'Ya tiene {limit} exportaciones en curso. Espere a que termine alguna antes de pedir otra.',
  ERROR_EXPORT_LIST_NOT_ALLOWED: 'Su perfil no puede exportar la lista «{list}».',
  // A zip of many documents (docs/adr/0033-zip-intake.md): the zip refused whole…
  ERROR_ZIP_INVALID: 'El archivo no es un ZIP válido o está dañado. Vuelva a generarlo e inténtelo nuevamente.',
  ERROR_ZIP_ENTRY_CORRUPT:
    'El archivo «{name}» del ZIP está dañado ({reason}): no se registró ningún comprobante del ZIP. Vuelva a generar el ZIP y cárguelo de nuevo.',
  ERROR_ZIP_EMPTY: 'El ZIP no contiene ningún comprobante: agregue los XML con sus PDF.',
  ERROR_ZIP_TOO_MANY_ENTRIES: 'El ZIP contiene {count} archivos; el máximo es {limit}.',
  ERROR_ZIP_TOO_MANY_DOCUMENTS:
    'El ZIP contiene {count} comprobantes; el máximo por ZIP es {limit}. Divídalo en varios ZIP.',
  ERROR_ZIP_TOO_LARGE: 'El contenido del ZIP supera los {limit} sin comprimir. Divídalo en varios ZIP.',
  ERROR_ZIP_ENTRY_TOO_LARGE: 'El archivo «{name}» del ZIP ocupa {size}; un {kind} puede ocupar hasta {limit}.',
  ERROR_ZIP_SUSPICIOUS_RATIO:
    'El archivo «{name}» del ZIP tiene una compresión inusual ({ratio} a 1) y no se procesa por seguridad.',
  ERROR_ZIP_UNSAFE_NAME:
    'El nombre «{name}» del ZIP no está permitido: {reason}. Coloque los archivos en la raíz del ZIP, sin carpetas.',
  ERROR_ZIP_DUPLICATE_NAME: 'El ZIP contiene dos veces el archivo «{name}».',
  ERROR_ZIP_NESTED:
    'El ZIP contiene otro ZIP («{name}»): solo se admite dentro el CDR de SUNAT de un comprobante (R-<nombre>.zip).',
  ERROR_ZIP_ENCRYPTED: 'El archivo «{name}» del ZIP está protegido con contraseña; envíe el ZIP sin contraseña.',
  ERROR_ZIP_UNKNOWN_FILE_TYPE:
    'El archivo «{name}» no es un XML, un PDF ni un CDR: el ZIP solo puede contener los XML de los comprobantes, sus PDF y sus CDR.',
  ERROR_ZIP_CDR_CONTENT: 'El ZIP del CDR debe contener un único XML de SUNAT (R-<nombre>.xml).',
  // …or one document of it, the others still taken.
  ERROR_ZIP_DOCUMENT_WITHOUT_XML: 'Falta el XML de «{base}»: el ZIP trae {files} sin su XML.',
  ERROR_ZIP_DOCUMENT_TWO_CDRS: 'El ZIP trae dos CDR para «{base}» ({files}); deje solo uno.',
  ERROR_ZIP_CDR_INVALID: 'El CDR «{name}» de «{base}» no es válido: {reason}',
  // …and the batch a zip became ('Cargar ZIP', docs/intake-channels.md#zip).
  ERROR_INTAKE_BATCH_NOT_FOUND: 'No se encontró la carga de ZIP solicitada.',
  ERROR_TOO_MANY_INTAKE_BATCHES:
    'Ya tiene {limit} cargas de ZIP en curso. Espere a que termine alguna antes de cargar otro ZIP.',
  ERROR_INTAKE_BATCH_FAILED:
    'No se pudo terminar de procesar el ZIP. Cárguelo nuevamente: los comprobantes ya registrados figurarán como existentes.',
  // SUNAT's constancia de recepción (CDR) sent with a document (docs/ap-cdr.md).
  ERROR_CDR_INVALID:
    'El archivo no es una constancia de recepción (CDR) de SUNAT: debe ser el XML de respuesta (ApplicationResponse) que SUNAT entregó al emisor.',
  ERROR_CDR_INVALID_FIELD: 'Falta o no es válido el dato «{field}» de la constancia de recepción (CDR).',
  ERROR_CDR_NOT_SUNAT:
    'La constancia de recepción no fue emitida por SUNAT (RUC 20131312955) sino por el RUC {sender}; envíe la constancia que SUNAT entregó al emisor.',
  ERROR_CDR_OTHER_DOCUMENT:
    'La constancia de recepción corresponde al comprobante {cdrDocument} del RUC {cdrIssuer}, no al comprobante {document} del RUC {issuer}.',
} as const;

/** Codes of the user administration; ERROR_USER_NOT_FOUND and ERROR_CLIENT_NOT_FOUND are spec §8's. */
export const USER_ADMIN_ERROR_MESSAGES = {
  ERROR_USER_ALREADY_EXISTS: 'Ya existe un usuario con ese correo electrónico.',
  ERROR_USER_DISABLED: 'El usuario está deshabilitado.',
  ERROR_TOO_MANY_ATTEMPTS:
    'Se superó el número de intentos permitidos para este usuario. Inténtelo nuevamente más tarde.',
  // The suppliers' API clients (docs/integrators.md, docs/adr/0034-api-clients.md).
  ERROR_API_CLIENT_NOT_FOUND: 'No se encontró el cliente de API indicado.',
  ERROR_API_CLIENT_UNKNOWN_SUPPLIER:
    'El RUC {ruc} no pertenece a ningún proveedor del portal: cree primero la cuenta del proveedor.',
  ERROR_API_CLIENT_ALREADY_REVOKED: 'El cliente de API ya fue revocado.',
  ERROR_API_CLIENT_REVOKED:
    'Las credenciales de este cliente de API fueron revocadas. Pida un cliente nuevo al administrador del portal.',
  ERROR_API_CLIENT_ROUTE_NOT_ALLOWED: 'Los clientes de API no pueden usar esta operación del portal.',
  ERROR_API_CLIENT_SCOPE_MISSING: 'El token del cliente de API no tiene el alcance «{scope}» que pide esta operación.',
  ERROR_API_CLIENT_HEADER:
    'Las llamadas de un cliente de API deben llevar la cabecera x-api-client con su ID de cliente, y solo ellas.',
  ERROR_API_CLIENT_RATE_LIMITED:
    'El cliente de API superó las {limit} solicitudes por minuto permitidas. Vuelva a intentarlo en {retryAfter} segundos.',
} as const;

/** Codes the API adds for transport, session and request-shape failures. */
export const REQUEST_ERROR_MESSAGES = {
  ERROR_MISSING_PARAMETER: 'Falta el parámetro obligatorio «{parameter}».',
  ERROR_INVALID_PARAMETER: 'El valor de «{parameter}» no es válido: {reason}',
  ERROR_INVALID_BODY: 'El cuerpo de la solicitud no es un JSON válido.',
  ERROR_INVALID_CURSOR: 'La página solicitada no es válida; vuelva a la primera página.',
  ERROR_UNAUTHORIZED: 'No podemos validar tu sesión en este momento.',
  ERROR_FORBIDDEN: 'Sesión inválida.',
  ERROR_COMPANY_NOT_ALLOWED: 'No tiene acceso a la sociedad {companyId}.',
  /** A request that reached the API without passing through CloudFront (RUNTIME_ENV.originVerifyToken). */
  ERROR_DIRECT_ACCESS_FORBIDDEN: 'Acceso no permitido: use la dirección del portal.',
  /** The API's own answers, before any function: no route for the method and path, headers or body too large. */
  ERROR_ROUTE_NOT_FOUND: 'La dirección solicitada no existe en el API del portal.',
  ERROR_REQUEST_HEADERS_TOO_LARGE: 'Las cabeceras o la dirección de la solicitud superan el tamaño permitido.',
  ERROR_REQUEST_TOO_LARGE: 'El cuerpo de la solicitud supera el tamaño permitido.',
  /** Answered by AWS WAF's rate-based rule (infra firewall), in the API's body shape. */
  ERROR_TOO_MANY_REQUESTS:
    'Se recibieron demasiadas solicitudes desde su conexión. Espere unos minutos e inténtelo nuevamente.',
} as const;

/** The message of a 500: the body carries no code and nothing of the cause, only the txId. */
export const UNEXPECTED_ERROR_MESSAGE = 'Ocurrió un error inesperado. Inténtelo más tarde.';

export const ERROR_MESSAGES = {
  ...INVOICE_ERROR_MESSAGES,
  ...USER_ADMIN_ERROR_MESSAGES,
  ...REQUEST_ERROR_MESSAGES,
} as const;
export type ErrorCode = keyof typeof ERROR_MESSAGES;
export const ERROR_CODES = Object.keys(ERROR_MESSAGES) as ErrorCode[];

/** Client-side texts of spec §8 (transport, session, login, header). */
export const CLIENT_MESSAGES = {
  unauthorized: 'No podemos validar tu sesión en este momento.',
  forbidden: 'Sesión inválida.',
  unknownApiError: 'Error desconocido al llamar API.',
  sessionMissing: 'La sesión del usuario es inválida.',
  tokenFailure: 'No es posible autorizar al usuario',
  userLookupFailure: 'Usuario no encontrado',
  fallback: 'Error no determinado',
  fillAllFields: 'Asegúrece de llenar todos los campos antes de continuar.',
  unexpected: 'Ocurrió un error no esperado.',
  unexpectedTryLater: 'Ocurrió un error inesperado, inténtelo más tarde.',
  loginFailed: 'No ha sido posible iniciar sesión.',
  userFetchFailed: 'No ha sido posible obtener el usuario',
  badCredentials: 'Usuario o contraseña incorrectos.',
  headerSession: 'Hubo un problema reconociendo la sesión del usuario',
  notificationsLoad: 'Hubo un error al cargar tus notificaciones. Por favor intenta luego.',
} as const;

/** Fills {placeholders} of a catalogue message with the error's parameters. */
export function formatErrorMessage(code: ErrorCode, parameters: Record<string, unknown> = {}): string {
  return ERROR_MESSAGES[code].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in parameters ? String(parameters[name]) : whole,
  );
}
