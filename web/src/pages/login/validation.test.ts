import { describe, expect, it } from 'vitest';
import { corporateDomainOf, emailError, isStrongPassword, newPasswordErrors } from './validation';

describe('the login forms before anything is sent', () => {
  it("applies the user pool's password policy: 12 characters of every class", () => {
    expect(isStrongPassword('Mi-Clave#Propia2026')).toBe(true);
    for (const weak of [
      'Corta#1a',
      'sinmayusculas#2026',
      'SINMINUSCULAS#2026',
      'SinNumeros#Clave',
      'SinSimbolos2026x',
    ]) {
      expect(isStrongPassword(weak)).toBe(false);
    }
  });

  it('says nothing until submitted, then names each problem in Spanish', () => {
    expect(newPasswordErrors('x', 'y', false)).toEqual({});
    expect(newPasswordErrors('Mi-Clave#Propia2026', 'otra', true)).toEqual({
      password: undefined,
      repeated: 'Las contraseñas no coinciden.',
    });
    expect(emailError('', true)).toBe('Ingresa tu correo electrónico.');
    expect(emailError('nombre@empresa', true)).toBe('Ingresa un correo electrónico válido.');
    expect(emailError('nombre@empresa.pe', true)).toBeUndefined();
  });
});

describe("an e-mail of the group's corporate domains", () => {
  const domains = ['grupoandino.pe'];

  it('is recognised whatever its case or spaces, and on a subdomain', () => {
    expect(corporateDomainOf('gestor@grupoandino.pe', domains)).toBe('grupoandino.pe');
    expect(corporateDomainOf('  Gestor@GrupoAndino.PE ', domains)).toBe('grupoandino.pe');
    expect(corporateDomainOf('ana@lima.grupoandino.pe', domains)).toBe('grupoandino.pe');
  });

  it('is not a supplier’s address, a look-alike domain, or anything when no domain is configured', () => {
    expect(corporateDomainOf('proveedor@demo.pe', domains)).toBeNull();
    expect(corporateDomainOf('falso@nogrupoandino.pe', domains)).toBeNull();
    expect(corporateDomainOf('gestor@grupoandino.pe.evil.com', domains)).toBeNull();
    expect(corporateDomainOf('sin-arroba', domains)).toBeNull();
    expect(corporateDomainOf('gestor@grupoandino.pe', [])).toBeNull();
  });
});
