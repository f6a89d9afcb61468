import { PublicKey } from '@solana/web3.js';
import { IssuerStatus, type IssuerAccount } from '../../../../shared/program/codec';
import { ISSUER_STATUS_NAMES, type IssuerStatusName } from '../../../../shared/program/names';
import type { UserRow } from '../../db/schema';
import { fail } from '../../lib/errors';
import { clientKey, retryAfterSeconds, TokenBuckets } from '../../lib/rate-limit';
import type { Services } from '../index';

// Roles (notes/institutions-design.md): every signed-in wallet is a holder; a wallet is an issuer when
// the chain has an Issuer account for it (pending, approved or suspended); a wallet is an operator when
// ATTESTA_OPERATOR_WALLETS lists it. Nothing else grants a role: the server's own key is no operator
// wallet unless it is listed, and a session never carries a role (it is read at every call). On the
// embedded chain only, the development wallet's "Operator" account (services/demo/accounts.ts, a random
// key of this installation) is an operator too.

export interface Roles {
  issuer: { authority: string; name: string; domain: string; status: IssuerStatusName } | null;
  operator: boolean;
}

type OperatorSvc = Pick<Services, 'config' | 'devAccounts'>;

/** Listed in ATTESTA_OPERATOR_WALLETS, or the embedded chain's development "Operator" account. */
export function isOperator(svc: OperatorSvc, wallet: string): boolean {
  return svc.config.institutions.operatorWallets.has(wallet) || (svc.config.chain.mode === 'embedded' && !!svc.devAccounts?.isOperator(wallet));
}

// auth.me asks for the caller's roles at every call (every page the app loads): a wallet's Issuer
// account is kept while the chain's state version is unchanged (the embedded chain: every transaction
// changes it, so a registration or a status change shows at the next call). An RPC chain has no
// version: it is read every time (a registration the app has just sent must show at once).
// Authorization never uses this: issuerOf and approvedIssuerOf read the chain at every call.
const ROLE_CACHE_MAX = 10_000;
type RoleEntry = { version: number; issuer: IssuerAccount | null };
const roleCaches = new WeakMap<Services['chain'], Map<string, RoleEntry>>();

async function issuerForRoles(chain: Services['chain'], wallet: string): Promise<IssuerAccount | null> {
  const version = chain.stateVersion();
  if (version === null) return chain.readIssuer(new PublicKey(wallet));
  let cache = roleCaches.get(chain);
  if (!cache) roleCaches.set(chain, (cache = new Map()));
  const hit = cache.get(wallet);
  if (hit?.version === version) return hit.issuer;
  const issuer = await chain.readIssuer(new PublicKey(wallet));
  if (cache.size >= ROLE_CACHE_MAX) cache.clear();
  // The version read before the account: a change made meanwhile makes the next call read it again.
  cache.set(wallet, { version, issuer });
  return issuer;
}

export async function rolesOf(svc: Pick<Services, 'chain'> & OperatorSvc, wallet: string): Promise<Roles> {
  const issuer = await issuerForRoles(svc.chain, wallet);
  return {
    issuer: issuer ? { authority: wallet, name: issuer.name, domain: issuer.uri, status: ISSUER_STATUS_NAMES[issuer.status] } : null,
    operator: isOperator(svc, wallet),
  };
}

/** The caller's on-chain Issuer account; FORBIDDEN when the wallet is not a registered institution. */
export async function issuerOf(svc: Pick<Services, 'chain'>, user: UserRow): Promise<IssuerAccount> {
  return (await svc.chain.readIssuer(new PublicKey(user.wallet_address))) ?? fail('FORBIDDEN', 'This wallet is not a registered institution. Register the institution first.');
}

/** An approved issuer, or FORBIDDEN saying why not (pending: wait for approval; suspended). */
export async function approvedIssuerOf(svc: Pick<Services, 'chain'>, user: UserRow): Promise<IssuerAccount> {
  const issuer = await issuerOf(svc, user);
  if (issuer.status === IssuerStatus.Pending) fail('FORBIDDEN', 'The institution is not approved yet. Prove its domain; the operator approves it then.');
  if (issuer.status === IssuerStatus.Suspended) fail('FORBIDDEN', 'The institution is suspended by the operator: it cannot issue, confirm or revoke.');
  return issuer;
}

/** FORBIDDEN unless the wallet is an operator (isOperator). */
export function requireOperator(svc: OperatorSvc, user: UserRow): void {
  if (!isOperator(svc, user.wallet_address)) fail('FORBIDDEN', 'This wallet is not an operator of this Attesta installation.');
}

/**
 * Issuer, operator and confirmation-request actions per wallet, like sign-in (config.institutions);
 * registrations also per client address (the platform pays each Issuer account's rent: fresh wallets
 * from one address share one budget).
 */
export class InstitutionLimiter {
  private readonly buckets = new TokenBuckets({ maxKeys: 50_000 });
  constructor(private readonly limits: { actionsPerWallet: number; windowMs: number }) {}

  take(wallet: string, client?: { ip?: string }): void {
    const limit = { capacity: this.limits.actionsPerWallet, windowMs: this.limits.windowMs };
    const r = this.buckets.takeAll([[`institution:${wallet}`, limit], ...(client ? [[`institution-ip:${clientKey(client.ip)}`, limit] as [string, typeof limit]] : [])]);
    if (!r.ok) {
      const s = retryAfterSeconds(r.retryAfterMs);
      fail('TOO_MANY_REQUESTS', `Too many institution actions${client ? '' : ' for this wallet'}. Try again in ${s} second${s === 1 ? '' : 's'}.`, { retryAfterSec: s });
    }
  }
}
