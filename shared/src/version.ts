/** Application version shown in the web app and served by the health checks (spec §1). */
export const APP_VERSION = '1.0.5';
export const APP_TITLE = 'Portal de Proveedores';
