import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { Kysely } from 'kysely';
import type { Database, UserRow, WalletActionKind, WalletActionRow } from '../../db/schema';
import { isUniqueViolation } from '../../db/dialect';
import { fail } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { ChainError } from '../chain';
import type { Services } from '../index';
import { intentOf, preparedTxColumns } from './index';

// The prepared wallet transactions of institutions and holders (register, issue, request, confirm,
// revoke), kept in `wallet_action` like the mint keeps `mint_attempt`: prepare stores the exact message,
// submit accepts back only that message signed by the wallet it was prepared for, sends it, and the
// flow's `finish` writes the rows from what the chain now says. `finish` runs once per action: it
// claims the action (submitted → landed) in the transaction that writes its rows.

export type ActionServices = Pick<Services, 'db' | 'chain' | 'walletTx' | 'bus' | 'blobs' | 'config'>;

export interface PreparedAction {
  action_id: string;
  /** Base64 wire transaction, signed by the platform (fee payer); the wallet signs it next. */
  transaction: string;
  expires_at: string;
}

/**
 * What a flow does once its transaction landed: the rows it writes, in `trx`, and what the caller gets.
 * Called with the action already claimed in `trx`.
 */
export type Finish = (svc: ActionServices, trx: Kysely<Database>, action: WalletActionRow, signature: string) => Promise<unknown>;

/** After the commit (events for live pages, blob clean-up). */
export type AfterFinish = (svc: ActionServices, action: WalletActionRow) => Promise<void> | void;

/**
 * Before the transaction is sent: whether what it says still holds (the rows the action was prepared
 * from), in the transaction that claims the action for sending (prepared → submitted). It refuses by
 * throwing a DomainError: nothing is sent and the action stays prepared. A flow whose rows another
 * request may change meanwhile locks them here (lockCertificate), and that request, finding the action
 * submitted, waits for it or refuses: what was checked is what the chain gets.
 */
export type Check = (svc: ActionServices, trx: Kysely<Database>, action: WalletActionRow) => Promise<void>;

export interface ActionFlow {
  check?: Check;
  finish: Finish;
  after?: AfterFinish;
  /** Runs when the action can no longer land (refused by the chain, expired): e.g. delete its stored file. */
  abandon?: (svc: ActionServices, action: WalletActionRow) => Promise<void>;
}

const MESSAGES = {
  unreadable: 'The signed transaction could not be read. Sign the transaction the server prepared and send it back unchanged (base64).',
  mismatch: 'This is not a transaction the server prepared for you. Prepare it again and sign what the server returns.',
  notSigned: 'The transaction is not signed by the wallet it was prepared for. Sign it with that wallet.',
  badSignatures: 'A signature of the transaction is invalid. Sign the prepared transaction again without changing it.',
  expired: 'The prepared transaction expired before it was signed. Prepare it again.',
  closed: 'This prepared transaction was already used or refused. Prepare it again.',
  inProgress: 'This transaction is being sent right now. Wait a moment and reload.',
} as const;

/** Chain refusals a wallet action can meet, in words that say what to do. */
const REFUSALS: Record<string, string> = {
  IssuerNotApproved: 'The institution is not approved yet: the operator approves it once its domain is proven.',
  IssuerSuspended: 'The institution is suspended: it cannot issue, confirm or be asked to confirm.',
  HashAlreadyAnchored: 'This file is already issued or confirmed by an institution; it cannot be issued again.',
  ConfirmationNotRequested: 'The holder did not ask this institution to confirm the certificate.',
  RecordAlreadyNamesHolder: 'The holder already holds this file: they ask the institution to confirm it from its page, and the institution confirms it from its requests.',
  AlreadyConfirmed: 'The certificate is already confirmed by an institution.',
  InvalidCertificateStatus: 'The certificate is revoked: it cannot be confirmed or requested.',
  CertificateExpired: 'The certificate has expired.',
  NotAuthorizedToRevoke: 'Only the institution that issued or confirmed the certificate (or was asked to) can revoke it.',
  AlreadyRevoked: 'The certificate is already revoked.',
  InvalidExpiry: 'The expiry must be in the future.',
  NotHolder: 'Only the certificate’s holder can ask for a confirmation.',
};

export function chainRefusal(e: ChainError): string {
  return (e.errorName && REFUSALS[e.errorName]) ?? `The chain refused the transaction: ${e.message}`;
}

const nowIso = () => new Date().toISOString();

/** Builds and stores a prepared action; `signer` (the user's wallet) signs it next. */
export async function prepareAction(
  svc: ActionServices,
  user: UserRow,
  p: { kind: WalletActionKind; instructions: TransactionInstruction[]; signer: PublicKey; certificateId?: string | null; requestId?: string | null; payload: Record<string, unknown> },
): Promise<PreparedAction> {
  const prepared = await svc.walletTx.prepare(p.kind, p.instructions, p.signer);
  const answer = (id: string): PreparedAction => ({ action_id: id, transaction: prepared.transaction, expires_at: new Date(prepared.expiresAt).toISOString() });
  // The same instructions under the same blockhash are the same message (a retry, a double click): the
  // action already stored is the answer while it can still be signed.
  const same = await svc.db.selectFrom('wallet_action').select(['id', 'user_id', 'status']).where('message_sha256', '=', prepared.messageSha256).executeTakeFirst();
  if (same) {
    if (same.user_id === user.id && same.status === 'prepared') return answer(same.id);
    fail('CONFLICT', 'This very transaction was just sent. Wait a few seconds and prepare it again.');
  }
  // The same instructions under a newer blockhash (the chain makes one at most a slot, ~400 ms), and the
  // same rows to write once it lands: a second click that came later than that. The action already
  // stored is the answer while a wallet still has time to sign it, so one intent is one transaction to
  // sign, whenever the click came. (What differs only off chain, a corrected title, is another intent.)
  const earlier = await preparedEarlier(svc, user, p.kind, prepared.message, JSON.stringify(p.payload));
  if (earlier) return earlier;
  const now = nowIso();
  const id = newId('w_');
  try {
    await svc.db
      .insertInto('wallet_action')
      .values({
        id,
        kind: p.kind,
        user_id: user.id,
        signer: prepared.signer,
        certificate_id: p.certificateId ?? null,
        request_id: p.requestId ?? null,
        ...preparedTxColumns(prepared),
        status: 'prepared',
        error: null,
        payload: JSON.stringify(p.payload),
        created_at: now,
        updated_at: now,
      })
      .execute();
  } catch (e) {
    // Two identical prepares at once: the other one stored it.
    if (!isUniqueViolation(e, 'wallet_action')) throw e;
    const other = await svc.db.selectFrom('wallet_action').select(['id', 'user_id', 'status']).where('message_sha256', '=', prepared.messageSha256).executeTakeFirst();
    if (other?.user_id === user.id && other.status === 'prepared') return answer(other.id);
    fail('CONFLICT', 'This very transaction was just sent. Wait a few seconds and prepare it again.');
  }
  return answer(id);
}

/** How long a stored prepared action must still be signable to be handed out again. */
export const REUSE_MIN_LEFT_MS = 60_000;

/**
 * A prepared action of `user` with the same intent — the message but its blockhash (intentOf), and the
 * same payload — and time left to sign it.
 */
async function preparedEarlier(svc: ActionServices, user: UserRow, kind: WalletActionKind, message: string, payload: string): Promise<PreparedAction | null> {
  const open = await svc.db
    .selectFrom('wallet_action')
    .select(['id', 'message', 'expires_at'])
    .where('status', '=', 'prepared') // few: the settle loop closes the expired ones
    .where('user_id', '=', user.id)
    .where('kind', '=', kind)
    .where('payload', '=', payload)
    .where('expires_at', '>', Date.now() + REUSE_MIN_LEFT_MS)
    .orderBy('expires_at', 'desc')
    .limit(20)
    .execute();
  const intent = intentOf(message);
  const hit = open.find((a) => intentOf(a.message) === intent);
  return hit ? { action_id: hit.id, transaction: svc.walletTx.rebuild(hit.message), expires_at: new Date(hit.expires_at).toISOString() } : null;
}

export const payloadOf = <T>(a: WalletActionRow) => JSON.parse(a.payload) as T;

async function mark(db: Kysely<Database>, id: string, status: WalletActionRow['status'], error: string | null, from: WalletActionRow['status'][]) {
  await db.updateTable('wallet_action').set({ status, error, updated_at: nowIso() }).where('id', '=', id).where('status', 'in', from).execute();
}

/** Whether the action's transaction is recorded as landed (the chain persists every transaction it sends). */
async function landed(svc: ActionServices, a: WalletActionRow) {
  const tx = await svc.db.selectFrom('chain_transaction').select('status').where('signature', '=', a.signature).executeTakeFirst();
  return tx?.status === 'success';
}

/** Claims the landed action and runs its flow's finish in one DB transaction; null when another caller finished it. */
async function finishAction(svc: ActionServices, a: WalletActionRow, flow: ActionFlow): Promise<{ result: unknown } | null> {
  const out = await svc.db.transaction().execute(async (trx) => {
    const r = await trx.updateTable('wallet_action').set({ status: 'landed', error: null, updated_at: nowIso() }).where('id', '=', a.id).where('status', '=', 'submitted').executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return null;
    return { result: await flow.finish(svc, trx, a, a.signature) };
  });
  if (out) await flow.after?.(svc, a);
  return out;
}

/**
 * The wallet's signed transaction of an action of one of `flows`' kinds, prepared for `user`: checked
 * (the very message, every signature valid, the user's wallet among them), sent, and finished.
 */
export async function submitAction(svc: ActionServices, user: UserRow, signedTransaction: string, flows: Partial<Record<WalletActionKind, ActionFlow>>): Promise<{ action_id: string; kind: WalletActionKind; signature: string; result: unknown }> {
  const signed = svc.walletTx.read(signedTransaction) ?? fail('BAD_REQUEST', MESSAGES.unreadable);
  const a = await svc.db.selectFrom('wallet_action').selectAll().where('message_sha256', '=', signed.messageSha256).where('user_id', '=', user.id).executeTakeFirst();
  const flow = a ? flows[a.kind] : undefined;
  if (!a || !flow || !svc.walletTx.isPrepared(signed, a.message)) return fail('BAD_REQUEST', MESSAGES.mismatch);
  const done = (result: unknown) => ({ action_id: a.id, kind: a.kind, signature: a.signature, result });
  if (a.status === 'landed') return done(null);
  if (a.status === 'submitted') {
    // Sent by another request, or left in flight by a crash: finish it when the chain has it.
    if (await landed(svc, a)) return done((await finishAction(svc, a, flow))?.result ?? null);
    return fail('CONFLICT', MESSAGES.inProgress);
  }
  if (a.status !== 'prepared') fail('BAD_REQUEST', a.status === 'expired' ? MESSAGES.expired : MESSAGES.closed);

  const problem = svc.walletTx.signatureProblem(signed, a.signer === user.wallet_address ? user.wallet_address : null);
  if (problem) fail('BAD_REQUEST', problem === 'not_signed' ? MESSAGES.notSigned : MESSAGES.badSignatures);
  if (Date.now() > a.expires_at) {
    await mark(svc.db, a.id, 'expired', null, ['prepared']);
    await flow.abandon?.(svc, a);
    fail('BAD_REQUEST', MESSAGES.expired);
  }

  // One sender per action: compare-and-set, with the flow's check of what it says in the same transaction.
  const claimed = await svc.db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('wallet_action')
      .set({ status: 'submitted', signed_transaction: signedTransaction, updated_at: nowIso() })
      .where('id', '=', a.id)
      .where('status', '=', 'prepared')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await flow.check?.(svc, trx, a);
    return true;
  });
  if (!claimed) return fail('CONFLICT', MESSAGES.inProgress);

  try {
    await svc.walletTx.send(signed.tx, { kind: a.kind, certificateId: a.certificate_id });
  } catch (e) {
    if (!(e instanceof ChainError)) throw e; // outcome unknown: stays 'submitted'
    await mark(svc.db, a.id, 'failed', e.message, ['submitted']);
    await flow.abandon?.(svc, a);
    fail('BAD_REQUEST', chainRefusal(e));
  }
  const finished = await finishAction(svc, { ...a, status: 'submitted' }, flow);
  return done(finished?.result ?? null);
}

/**
 * Start-up (and background) repair: an action a crash left between the send and its rows is finished
 * from what the chain recorded; one whose transaction can no longer land is closed (and its flow
 * abandons it: an issue's stored file is deleted). Returns what it did.
 */
export async function settleActions(svc: ActionServices, flows: Partial<Record<WalletActionKind, ActionFlow>>): Promise<{ finished: number; expired: number; errors: string[] }> {
  const out = { finished: 0, expired: 0, errors: [] as string[] };
  const open = await svc.db.selectFrom('wallet_action').selectAll().where('status', 'in', ['prepared', 'submitted']).orderBy('created_at').limit(1000).execute();
  for (const a of open) {
    const flow = flows[a.kind];
    if (!flow) continue;
    try {
      if (a.status === 'submitted' && (await landed(svc, a))) {
        if (await finishAction(svc, a, flow)) out.finished++;
        continue;
      }
      const gone = a.status === 'prepared' ? Date.now() > a.expires_at : await svc.walletTx.expired({ expiresAt: a.expires_at, lastValidBlockHeight: a.last_valid_block_height });
      if (!gone) continue;
      await mark(svc.db, a.id, 'expired', a.status === 'submitted' ? 'The transaction did not land before its blockhash expired.' : null, [a.status]);
      await flow.abandon?.(svc, a);
      out.expired++;
    } catch (e) {
      out.errors.push(`${a.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}
