import { describe, expect, it } from 'vitest';
import { exportMessages } from '../../components/list-export';
import { suppliersMessages } from '../../pages/suppliers/messages';
import { headerMessages } from './messages';

describe('counts in the web app’s texts agree with their words (es-PE)', () => {
  it('says one found supplier, one conversation and one row in the singular', () => {
    expect(headerMessages.search.suppliersFound(1)).toBe('1 proveedor encontrado');
    expect(headerMessages.search.suppliersFound(1234)).toBe('1,234 proveedores encontrados');
    expect(headerMessages.search.invoicesFound(1)).toBe('1 comprobante encontrado');
    expect(headerMessages.search.invoicesFound(3)).toBe('3 comprobantes encontrados');
    expect(headerMessages.conversations.ariaLabel(1)).toBe('Mensajes, 1 conversación espera su respuesta');
    expect(headerMessages.conversations.ariaLabel(3)).toBe('Mensajes, 3 conversaciones esperan su respuesta');
    expect(exportMessages.rows(1, null)).toBe('1 fila');
    expect(exportMessages.rows(1, 1)).toBe('1 de 1 fila');
    expect(exportMessages.rows(5, 1200)).toBe('5 de 1,200 filas');
  });

  it('says how many accounts a bulk change reached', () => {
    expect(suppliersMessages.reception.bulkDone(false, 1)).toBe('Se desactivó la recepción de correos de 1 cuenta.');
    expect(suppliersMessages.reception.bulkDone(true, 12)).toBe('Se activó la recepción de correos de 12 cuentas.');
  });
});
