import { routes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { intake } from '../../use-cases/intake.factory.js';

export const handler = httpHandler(routes.createInvoiceFromXml, ({ caller, body }) => intake.fromXml(caller, body));
