import { createHash, randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519';
import bs58 from 'bs58';
import type { Kysely } from 'kysely';
import { MESSAGES, SESSION_TTL_MS, SIGN_IN_NONCE_TTL_MS } from '../../../../shared/constants';
import { buildSignInMessage, parseSignInMessage } from '../../../../shared/schemas/auth';
import type { SignInChainId } from '../../../../shared/schemas/auth';
import type { Database, UserRow } from '../../db/schema';
import { DomainError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { checkSignInFields, type SignInExpectation } from './origin';

// Sign-In With Solana: the server issues a single-use nonce inside a readable message naming this
// server (origin.ts: never the request's Host on trust); the wallet signs it; the server checks the
// message as an EIP-4361 verifier would, the ed25519 signature, consumes the nonce atomically and
// opens a session.

const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
function randomToken(len: number) {
  const b = randomBytes(len);
  return Array.from(b, (x) => ALNUM[x % ALNUM.length]).join('');
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Stores and returns a new sign-in message; `domain`/`uri` come from `signInDomainFor` (origin.ts). */
export async function issueNonce(db: Kysely<Database>, p: { address: string; domain: string; uri: string; chainId?: SignInChainId; now?: number }) {
  const now = p.now ?? Date.now();
  const nonce = randomToken(24);
  const expires = now + SIGN_IN_NONCE_TTL_MS;
  const message = buildSignInMessage({
    domain: p.domain,
    address: p.address,
    uri: p.uri,
    chainId: p.chainId,
    nonce,
    issuedAt: new Date(now).toISOString(),
    expirationTime: new Date(expires).toISOString(),
  });
  await db.insertInto('sign_in_nonce').values({ nonce, address: p.address, message, expires_at: expires, used_at: null, created_at: new Date(now).toISOString() }).execute();
  // Housekeeping: old nonces are useless after expiry.
  await db.deleteFrom('sign_in_nonce').where('expires_at', '<', now - 24 * 3600_000).execute();
  return { nonce, message, expiresAt: new Date(expires).toISOString() };
}

const unauthorized = (message: string) => new DomainError('UNAUTHORIZED', message);

export function verifySignature(address: string, message: string, signatureB58: string): boolean {
  try {
    const sig = bs58.decode(signatureB58);
    const pub = bs58.decode(address);
    if (sig.length !== 64 || pub.length !== 32) return false;
    return ed25519.verify(sig, new TextEncoder().encode(message), pub);
  } catch {
    return false;
  }
}

/**
 * Verifies and consumes; returns the user (created on first sign-in) and a fresh session token.
 * `expect` (origin.ts `signInExpectation`) says which domains, URIs and chain this server accepts.
 * The token is always generated here (never taken from the client: no session fixation); the session
 * the caller held before (`replaceTokenHash`) is deleted in the same transaction, so signing in rotates it.
 */
export async function signIn(
  db: Kysely<Database>,
  p: { address: string; message: string; signature: string; expect: SignInExpectation; now?: number; replaceTokenHash?: string },
) {
  const now = p.now ?? Date.now();
  const fields = parseSignInMessage(p.message);
  if (!fields) throw unauthorized(MESSAGES.signInMessageMismatch);
  if (fields.address !== p.address) throw unauthorized(MESSAGES.signInMessageMismatch);
  // Domain, URI, chain and times, as an EIP-4361 / SIWS verifier checks them: a message issued for
  // another site (or before ATTESTA_PUBLIC_ORIGIN changed) opens no session here.
  const problem = checkSignInFields(fields, p.expect, now);
  if (problem) throw unauthorized(problem);
  if (Date.parse(fields.expirationTime) <= now) throw unauthorized(MESSAGES.signInExpired);
  if (!verifySignature(p.address, p.message, p.signature)) throw unauthorized(MESSAGES.signatureMismatch);

  const row = await db.selectFrom('sign_in_nonce').selectAll().where('nonce', '=', fields.nonce).executeTakeFirst();
  if (!row) throw unauthorized(MESSAGES.signInUnknown);
  // The exact text we issued (domain, URI, times) must be what was signed.
  if (row.message !== p.message || row.address !== p.address) throw unauthorized(MESSAGES.signInMessageMismatch);
  if (row.used_at !== null) throw unauthorized(MESSAGES.signInUsed);
  if (row.expires_at < now) throw unauthorized(MESSAGES.signInExpired);

  return db.transaction().execute(async (trx) => {
    // Atomic consume: only one of two concurrent sign-ins with the same nonce updates the row.
    const consumed = await trx
      .updateTable('sign_in_nonce')
      .set({ used_at: now })
      .where('nonce', '=', fields.nonce)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(consumed.numUpdatedRows) !== 1) throw unauthorized(MESSAGES.signInUsed);

    let user = await trx.selectFrom('user').selectAll().where('wallet_address', '=', p.address).executeTakeFirst();
    if (!user) {
      const iso = new Date(now).toISOString();
      user = { id: newId('u_'), wallet_address: p.address, full_name: '', email: null, profile_image_key: null, profile_image_url: null, created_at: iso, updated_at: iso };
      await trx.insertInto('user').values(user).execute();
    }
    if (p.replaceTokenHash) await trx.deleteFrom('session').where('token_hash', '=', p.replaceTokenHash).execute();
    // Expired sessions are refused anyway; removing this user's keeps the table from growing forever.
    await trx.deleteFrom('session').where('user_id', '=', user.id).where('expires_at', '<', now).execute();
    const token = randomToken(43);
    await trx
      .insertInto('session')
      .values({ token_hash: hashToken(token), user_id: user.id, created_at: new Date(now).toISOString(), expires_at: now + SESSION_TTL_MS })
      .execute();
    return { user, token, expiresAt: now + SESSION_TTL_MS };
  });
}

export async function userForSession(db: Kysely<Database>, token: string | undefined, now = Date.now()): Promise<{ user: UserRow; tokenHash: string } | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = hashToken(token);
  const user = await db
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.user_id')
    .selectAll('user')
    .where('session.token_hash', '=', tokenHash)
    .where('session.expires_at', '>', now)
    .executeTakeFirst();
  return user ? { user, tokenHash } : null;
}

export async function signOut(db: Kysely<Database>, tokenHash: string) {
  await db.deleteFrom('session').where('token_hash', '=', tokenHash).execute();
}

export {
  checkSignInFields,
  isLocalChain,
  listenOrigin,
  localHosts,
  signInChainId,
  signInDomainFor,
  signInExpectation,
  signInOrigins,
  SIGN_IN_ORIGIN_MESSAGES,
  type SignInExpectation,
} from './origin';

export { limitNonceByWallet, limitSignInByClient, SignInLimiter, type SignInStep } from './limits';
