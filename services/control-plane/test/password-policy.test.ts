import { describe, expect, it } from 'vitest';
import { passwordWeakness } from '../src/domain/password-policy.ts';

const EMAIL = 'ada.lovelace@example.test';

describe('password policy', () => {
  it('accepts a long passphrase of its own', () => {
    expect(passwordWeakness('correct horse battery staple', EMAIL)).toBeUndefined();
    expect(passwordWeakness('Tr0ub4dor&3 on a Tuesday', EMAIL)).toBeUndefined();
  });

  it('refuses common and breached passwords, whatever their case or a trailing number', () => {
    for (const password of [
      'qwerty123456',
      '1q2w3e4r5t6y',
      'QWERTY123456',
      'password1234',
      'Sunshine2024!',
    ]) {
      expect(passwordWeakness(password, EMAIL), password).toBe('common');
    }
  });

  it("refuses a password built on the account's email or its local part", () => {
    for (const password of ['ada.lovelace@example.test', 'my name is Ada.Lovelace!', 'ada.lovelace-2024']) {
      expect(passwordWeakness(password, EMAIL), password).toBe('contains_email');
    }
    // A local part this short occurs in passwords by chance.
    expect(passwordWeakness('jolly green giants', 'jo@example.test')).toBeUndefined();
  });

  it('refuses a few characters repeated', () => {
    for (const password of [
      'aaaaaaaaaaaa',
      'abababababab',
      'xyz!xyz!xyz!',
      '🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂',
      'aabbccaabbcc',
    ]) {
      expect(passwordWeakness(password, EMAIL), password).toBe('repetitive');
    }
  });
});
