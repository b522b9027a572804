import { describe, expect, it } from 'vitest';
import { emailError, isStrongPassword, newPasswordErrors } from './validation';

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
