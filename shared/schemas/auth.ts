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

/**
 * The Chain ID values of Sign In With Solana (phantom/sign-in-with-solana ABNF `message-chain-id`).
 * `localnet` is the embedded chain and validators on this machine.
 */
export const SIGN_IN_CHAIN_IDS = ['mainnet', 'testnet', 'devnet', 'localnet', 'solana:mainnet', 'solana:testnet', 'solana:devnet'] as const;
export type SignInChainId = (typeof SIGN_IN_CHAIN_IDS)[number];

export interface SignInMessageFields {
  /** RFC 3986 authority the message is for (host[:port]); the wallet compares it with the page it is on. */
  domain: string;
  address: string;
  /** Our statement; `buildSignInMessage` always writes SIGN_IN_STATEMENT. */
  statement?: string;
  /** The origin the user signs in to, e.g. https://attesta.example. */
  uri: string;
  /** Always "1" (EIP-4361 / SIWS message version). */
  version?: string;
  /** The Solana network sessions are bound to; absent when the server cannot name its cluster. */
  chainId?: SignInChainId;
  nonce: string;
  issuedAt: string;
  expirationTime: string;
}

export const SIGN_IN_STATEMENT = 'Sign in to Attesta.';
export const SIGN_IN_VERSION = '1';

/**
 * The Sign-In-With-Solana message (EIP-4361 layout, SIWS ABNF): the server builds it, the app only
 * has it signed. Field order is the standard's; optional fields are left out when absent.
 */
export function buildSignInMessage(f: Omit<SignInMessageFields, 'statement' | 'version'>): string {
  const fields = [
    `URI: ${f.uri}`,
    `Version: ${SIGN_IN_VERSION}`,
    ...(f.chainId ? [`Chain ID: ${f.chainId}`] : []),
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
    `Expiration Time: ${f.expirationTime}`,
  ];
  return `${f.domain} wants you to sign in with your Solana account:\n${f.address}\n\n${SIGN_IN_STATEMENT}\n\n${fields.join('\n')}`;
}

const ADVANCED = [
  ['URI', 'uri'],
  ['Version', 'version'],
  ['Chain ID', 'chainId'],
  ['Nonce', 'nonce'],
  ['Issued At', 'issuedAt'],
  ['Expiration Time', 'expirationTime'],
  ['Not Before', 'notBefore'],
  ['Request ID', 'requestId'],
] as const;

/**
 * Parses a SIWS message (header, address, optional statement, the advanced fields in the standard's
 * order, each at most once). Null when the text is not of that shape, a field is malformed, or one
 * this server requires (URI, Nonce, Issued At, Expiration Time) or understands (no Not Before,
 * Request ID or Resources) is missing or extra.
 */
export function parseSignInMessage(message: string): SignInMessageFields | null {
  const head = /^([^\s/?#@]+) wants you to sign in with your Solana account:\n([1-9A-HJ-NP-Za-km-z]{32,44})(?:\n\n([^\n]+))?\n\n([^]+)$/.exec(message);
  if (!head) return null;
  const [, domain, address, statement, rest] = head;
  const out: Record<string, string> = {};
  let next = 0;
  for (const line of rest.split('\n')) {
    const k = ADVANCED.findIndex(([label], i) => i >= next && line.startsWith(`${label}: `));
    if (k < 0) return null;
    const [label, key] = ADVANCED[k];
    out[key] = line.slice(label.length + 2);
    next = k + 1;
  }
  if (out.notBefore !== undefined || out.requestId !== undefined) return null;
  if (!out.uri || !out.nonce || !out.issuedAt || !out.expirationTime) return null;
  if (!/^[A-Za-z0-9]{8,}$/.test(out.nonce)) return null;
  if (out.version !== undefined && out.version !== SIGN_IN_VERSION) return null;
  if (out.chainId !== undefined && !(SIGN_IN_CHAIN_IDS as readonly string[]).includes(out.chainId)) return null;
  return {
    domain,
    address,
    ...(statement !== undefined ? { statement } : {}),
    uri: out.uri,
    ...(out.version !== undefined ? { version: out.version } : {}),
    ...(out.chainId !== undefined ? { chainId: out.chainId as SignInChainId } : {}),
    nonce: out.nonce,
    issuedAt: out.issuedAt,
    expirationTime: out.expirationTime,
  };
}
