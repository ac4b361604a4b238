import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Which passwords an account may not have (NIST SP 800-63B, 5.1.1.2): one on a list of common and
 * breached passwords, one built on the account's own email, one of a few characters repeated. The
 * length bounds are the request schema's (PasswordSchema). Pure: no I/O.
 */

export type PasswordWeakness = 'common' | 'contains_email' | 'repetitive';

// zxcvbn-ts's list of the most common passwords, as leaked password sets rank them.
const COMMON_PASSWORDS = new Set(dictionary['passwords-common']);

/** The shortest local part refused inside a password: shorter ones ("jo") occur by chance. */
const MIN_EMAIL_PART = 3;
const MIN_DISTINCT_CHARACTERS = 4;

export function passwordWeakness(password: string, email: string): PasswordWeakness | undefined {
  const folded = password.normalize('NFKC').toLowerCase();
  if (COMMON_PASSWORDS.has(folded) || COMMON_PASSWORDS.has(folded.replace(/[\s\d!?.]+$/u, ''))) {
    return 'common';
  }
  const [localPart = ''] = email.toLowerCase().split('@');
  if (
    folded.includes(email.toLowerCase()) ||
    (localPart.length >= MIN_EMAIL_PART && folded.includes(localPart))
  ) {
    return 'contains_email';
  }
  if (new Set(folded).size < MIN_DISTINCT_CHARACTERS || /^(.{1,6})\1+$/su.test(folded)) return 'repetitive';
  return undefined;
}
