import { describe, expect, it } from 'vitest';
import { demoAccountsListing } from '../../local/runtime/outputs.js';
import { CORPORATE_EMAIL_DOMAIN, DEMO_USERS } from '../../local/seed/seed-data.js';

describe('the demo accounts npm start prints', () => {
  it('says how each account signs in: suppliers with a password, staff with the corporate button', () => {
    const listing = demoAccountsListing(DEMO_USERS);
    expect(listing).toContain('botón «Ingresar con cuenta corporativa»');
    for (const user of DEMO_USERS) {
      const row = listing.split('\n').find((line) => line.trim().startsWith(`${user.username} `));
      expect(row, user.username).toBeDefined();
      expect(row).toContain(user.signIn === 'corporate' ? 'cuenta corporativa' : 'correo y contraseña');
    }
  });

  it("gives the group's staff, and only them, the corporate domain the login recognises", () => {
    for (const user of DEMO_USERS) {
      const staff = user.role === 'MANAGER' || user.role === 'ADMIN';
      expect(user.signIn, user.username).toBe(staff ? 'corporate' : 'password');
      expect(user.username.endsWith(`@${CORPORATE_EMAIL_DOMAIN}`), user.username).toBe(staff);
    }
  });
});
