import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Short random ids: prefix + 16 base36 chars (~82 bits). */
export function newId(prefix: string, len = 16): string {
  const bytes = randomBytes(len);
  let s = '';
  for (const b of bytes) s += ALPHABET[b % 36];
  return prefix + s;
}
