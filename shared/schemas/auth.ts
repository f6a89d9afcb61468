import { z } from 'zod';
import { solanaAddress } from './common';

export const nonceInput = z.object({ address: solanaAddress });
export type NonceInput = z.infer<typeof nonceInput>;

export const signInInput = z.object({
  address: solanaAddress,
  message: z.string().min(1, { error: 'The signed message is required' }).max(2000),
  signature: z
    .string({ error: 'A signature is required' })
    .trim()
    .regex(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/, { error: 'The signature must be base58' }),
});
export type SignInInput = z.infer<typeof signInInput>;

export interface SignInMessageFields {
  domain: string;
  address: string;
  uri: string;
  nonce: string;
  issuedAt: string;
  expirationTime: string;
}

export const SIGN_IN_STATEMENT = 'Sign in to Attesta.';

/** The human-readable Sign-In-With-Solana message; the app and the server build the same text. */
export function buildSignInMessage(f: SignInMessageFields): string {
  return (
    `${f.domain} wants you to sign in with your Solana account:\n${f.address}\n\n${SIGN_IN_STATEMENT}\n\n` +
    `URI: ${f.uri}\nNonce: ${f.nonce}\nIssued At: ${f.issuedAt}\nExpiration Time: ${f.expirationTime}`
  );
}

/** Inverse of buildSignInMessage; null when the text is not exactly that shape. */
export function parseSignInMessage(message: string): SignInMessageFields | null {
  const m =
    /^(.+) wants you to sign in with your Solana account:\n([1-9A-HJ-NP-Za-km-z]{32,44})\n\nSign in to Attesta\.\n\nURI: (.+)\nNonce: ([A-Za-z0-9]+)\nIssued At: (.+)\nExpiration Time: (.+)$/.exec(
      message,
    );
  if (!m) return null;
  return { domain: m[1], address: m[2], uri: m[3], nonce: m[4], issuedAt: m[5], expirationTime: m[6] };
}
