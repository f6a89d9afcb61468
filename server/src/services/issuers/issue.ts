import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { CertificateStatus, TrustTier, fromHex, type IssuerAccount } from '../../../../shared/program/codec';
import { issueCertificateIx } from '../../../../shared/program/instructions';
import type { ConfirmedDetails } from '../../../../shared/schemas/details';
import { appendAudit } from '../../db/audit';
import { appendEvent } from '../../db/events';
import { findBySha256, insertCertificate, updateCertificate } from '../../db/certificates';
import type { CertificateRow, IssuerProfileRow, UserRow, WalletActionRow } from '../../db/schema';
import { fail } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { reconcileCertificate, withdrawOpenRequests } from '../chain-sync/reconcile';
import { claimsText } from '../certificates/history';
import { readCertificateFile } from '../certificates/intake';
import { safeFileName } from '../files/index.js';
import type { Services } from '../index';
import { payloadOf, prepareAction, type ActionFlow, type ActionServices, type PreparedAction } from '../wallet-tx/actions';
import { profileOf } from './profile';
import { approvedIssuerOf } from './roles';

// An approved institution with a proven domain issues a file to a holder's wallet: issue_certificate,
// signed by the institution's wallet. The holder sees a verified, issuer-confirmed certificate at once;
// an earlier unconfirmed claim of the same file by another wallet ends as superseded (visibly). A file
// the holder already added is not issued to them (the program refuses it: RecordAlreadyNamesHolder):
// the institution's word on a holder's own upload is a confirmation, and only the holder asks for one.

type Svc = Pick<Services, 'db' | 'chain' | 'walletTx' | 'bus' | 'blobs' | 'config' | 'devAccounts'>;

/** Issued files wait under their own prefix: the orphan sweep (services/blobs.ts) only takes holders' uploads. */
export const issuedFileKey = (id: string) => `issued/${id}.pdf`;

export interface IssueInput {
  title: string;
  program_name: string;
  issue_date: string;
  holder_wallet: string;
  expires_on?: string;
  certificate_file: File;
}

interface IssuePayload {
  certificate_id: string;
  holder_wallet: string;
  claims: { title: string; institution_name: string; program_name: string; issue_date: string };
  file_key: string;
  file_name: string;
  file_size: number;
  sha256: string;
  original_sha256: string | null;
  original_mime: string | null;
  expires_at: number;
}

/** "7xKXtg…sgAs": a wallet as people recognise it in a sentence. */
const shortWallet = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** A wallet address → its key, or BAD_REQUEST saying what a wallet address is. */
export function walletOrFail(address: string, who = 'The holder’s wallet address'): PublicKey {
  let bytes: Uint8Array | null = null;
  try {
    bytes = bs58.decode(address.trim());
  } catch {
    bytes = null;
  }
  if (!bytes || bytes.length !== 32) fail('BAD_REQUEST', `${who} “${address.trim().slice(0, 64)}” is not a valid Solana address (32 bytes in base58, like the one the wallet shows).`);
  return new PublicKey(bytes);
}

/**
 * The institution must have proven its domain before its word counts (issue, confirm). The one
 * exception is the demo institution of a local installation (embedded chain, demo data), so that a
 * newcomer can try the role; its records say "domain not proven" wherever they are shown.
 */
export function requireProven(svc: Pick<Services, 'devAccounts'>, profile: IssuerProfileRow): void {
  if (profile.proof_status === 'proven' || svc.devAccounts?.isDemoInstitution(profile.authority)) return;
  const lapsed = profile.proof_status === 'lapsed' ? 'The proof of the domain lapsed (a re-check failed). ' : '';
  fail(
    'PRECONDITION_FAILED',
    `${lapsed}Prove the institution’s domain ${profile.domain} first: publish the TXT record attesta-issuer=${profile.authority} at _attesta.${profile.domain}, or the file https://${profile.domain}/.well-known/attesta-issuer.json naming this authority, then check the domain again.`,
  );
}

/** The words a verifier reads for an institution's own word on a certificate. */
export function issuerConfirmedDetails(p: { authority: string; issuer: IssuerAccount; profile: IssuerProfileRow; at: Date; issued: boolean; holderName?: string | null }): ConfirmedDetails {
  const domain = p.profile.proof_status === 'proven' ? `${p.profile.domain}, domain proven` : `${p.profile.domain}, domain not proven`;
  const day = p.at.toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
  return {
    kind: 'confirmed',
    reason: `${p.issued ? 'Issued' : 'Confirmed'} by ${p.issuer.name} (${domain}): its own key signed the record on ${day}.`,
    reason_code: 0,
    reason_name: 'none',
    tier: 'issuer_confirmed',
    issuer: { authority: p.authority, name: p.issuer.name, domain: p.profile.domain },
    confirmed_at: p.at.toISOString(),
    claims_confirmed: true,
    content_checked: false,
    // The name the platform's check found before (a holder's upload); the institution checks none.
    ...(p.holderName ? { holder_name: p.holderName } : {}),
  };
}

export async function prepareIssue(svc: Svc, user: UserRow, input: IssueInput): Promise<PreparedAction> {
  const issuer = await approvedIssuerOf(svc, user);
  const profile = await profileOf(svc, user.wallet_address, issuer);
  requireProven(svc, profile);
  const holder = walletOrFail(input.holder_wallet);
  let expiresAt = 0;
  if (input.expires_on) {
    expiresAt = Math.floor(Date.parse(`${input.expires_on}T23:59:59Z`) / 1000);
    if (BigInt(expiresAt) <= (await svc.chain.now())) fail('BAD_REQUEST', 'The expiry must be a date in the future (or leave it empty: the certificate never expires).');
  }
  const file = await readCertificateFile(input.certificate_file);
  const hash = fromHex(file.sha256);
  const authority = new PublicKey(user.wallet_address);

  // The chain would refuse (HashAlreadyAnchored): say it before the wallet signs anything.
  const record = await svc.chain.readCertificate(hash);
  if (record && record.tier === TrustTier.IssuerConfirmed && (record.status !== CertificateStatus.Revoked || !record.issuer?.equals(authority))) {
    const other = record.issuer && !record.issuer.equals(authority) ? ((await svc.chain.readIssuer(record.issuer))?.name ?? 'another institution') : 'this institution';
    fail('CONFLICT', `This file is already issued or confirmed by ${other}. An institution’s word on a file is not overwritten; revoke it first if it is yours.`);
  }
  // The holder already holds this file (their own upload, or a record revoked for them): issuing it to
  // them would confirm it without their asking (RecordAlreadyNamesHolder on chain). Said before anything is stored.
  const wallet = holder.toBase58();
  const ownRow = (await findBySha256(svc.db, file.sha256)).find((r) => r.holder_wallet === wallet && r.verification_status !== 'superseded');
  if (record?.holder.equals(holder) || ownRow) {
    if (record?.status === CertificateStatus.Revoked) fail('CONFLICT', `${shortWallet(wallet)} already holds this file and its record is revoked: a revoked certificate is not issued to the same wallet again.`);
    fail('CONFLICT', `${shortWallet(wallet)} already added this file; they can ask you to confirm it from its page (Request confirmation), then you confirm it from your requests.`);
  }

  const id = newId('c_');
  const key = issuedFileKey(id);
  await svc.blobs.put(key, file.pdf, 'application/pdf');
  const payload: IssuePayload = {
    certificate_id: id,
    holder_wallet: holder.toBase58(),
    claims: { title: input.title, institution_name: issuer.name, program_name: input.program_name, issue_date: input.issue_date },
    file_key: key,
    file_name: safeFileName(input.certificate_file.name, 'pdf'),
    file_size: file.pdf.length,
    sha256: file.sha256,
    original_sha256: file.originalSha256,
    original_mime: file.originalMime,
    expires_at: expiresAt,
  };
  try {
    const prepared = await prepareAction(svc, user, {
      kind: 'issue_certificate',
      instructions: [issueCertificateIx(svc.chain.programId, { hash, holder, authority, payer: svc.chain.operator, expiresAt: BigInt(expiresAt) })],
      signer: authority,
      certificateId: id,
      payload: payload as unknown as Record<string, unknown>,
    });
    // The very same issue prepared a moment ago (a double click): that one keeps its own stored file.
    const stored = await svc.db.selectFrom('wallet_action').select('certificate_id').where('id', '=', prepared.action_id).executeTakeFirst();
    if (stored?.certificate_id !== id) await svc.blobs.delete(key).catch(() => undefined);
    return prepared;
  } catch (e) {
    await svc.blobs.delete(key).catch(() => undefined);
    throw e;
  }
}

/** The holder's user row, made (no name yet) when the wallet never signed in. */
async function holderUser(trx: ActionServices['db'], wallet: string): Promise<UserRow> {
  const existing = await trx.selectFrom('user').selectAll().where('wallet_address', '=', wallet).executeTakeFirst();
  if (existing) return existing;
  const now = new Date().toISOString();
  const user: UserRow = { id: newId('u_'), wallet_address: wallet, full_name: '', email: null, profile_image_key: null, profile_image_url: null, created_at: now, updated_at: now };
  await trx.insertInto('user').values(user).execute();
  return user;
}

/**
 * The chain follower's backstop may have seen this transaction's record first and superseded the earlier
 * claims without knowing which transaction did it (PostgreSQL: it runs beside us), writing their
 * `superseded` entries without a signature. The ones that are this issue's say so: written since the
 * issue was prepared (it cannot have landed before) and naming this holder as the record's new one. An
 * older entry without a signature is another transaction's (the file issued to another wallet, revoked
 * and now issued again) and keeps its own words.
 */
async function claimFollowersSupersede(trx: ActionServices['db'], a: WalletActionRow, p: IssuePayload, signature: string) {
  const candidates = await trx
    .selectFrom('certificate_event')
    .select(['id', 'details'])
    .where('kind', '=', 'superseded')
    .where('signature', 'is', null)
    .where('at', '>=', a.created_at)
    .where('certificate_id', 'in', trx.selectFrom('certificate').select('id').where('sha256', '=', p.sha256).where('holder_wallet', '!=', p.holder_wallet))
    .execute();
  const ours = candidates.filter((e) => (JSON.parse(e.details ?? '{}') as { new_holder_wallet?: string }).new_holder_wallet === p.holder_wallet).map((e) => e.id);
  if (ours.length) await trx.updateTable('certificate_event').set({ source: 'attesta', signature }).where('id', 'in', ours).execute();
}

export const issueFlow: ActionFlow = {
  async finish(svc, trx, a, signature) {
    const p = payloadOf<IssuePayload>(a);
    const authority = new PublicKey(a.signer);
    const issuer = (await svc.chain.readIssuer(authority))!;
    const profile = await profileOf({ db: trx }, a.signer, issuer);
    const holder = await holderUser(trx, p.holder_wallet);
    const now = new Date();
    const details = issuerConfirmedDetails({ authority: a.signer, issuer, profile, at: now, issued: true });
    const issued = {
      ...p.claims,
      verification_status: 'verified' as const,
      verification_details: JSON.stringify(details),
      tier: 'issuer_confirmed',
      issuer_authority: a.signer,
      requested_issuer: null,
      claims_confirmed: 1,
      anchor_signature: signature,
      updated_at: now.toISOString(),
    };
    // The holder added this very file while the issue was on its way (prepare refuses a file they already
    // held, and so does the program): the record was issued to them first, so their row is the issued one.
    const own = (await findBySha256(trx, p.sha256)).find((r) => r.holder_wallet === p.holder_wallet && r.verification_status !== 'superseded');
    let id = p.certificate_id;
    if (own) {
      id = own.id;
      await updateCertificate(trx, own.id, issued);
      await withdrawOpenRequests(trx, own.id, `${issuer.name} issued this certificate to you itself.`, issued.updated_at, { chain: svc.chain });
      await trx.updateTable('verification_job').set({ status: 'done', locked_until: null, updated_at: issued.updated_at }).where('certificate_id', '=', own.id).where('status', '=', 'queued').execute();
    } else {
      // Earlier claims of other wallets end as superseded first (live hashes are unique), each with this transaction in its history.
      await reconcileCertificate({ chain: svc.chain, db: trx, bus: svc.bus }, p.sha256, { signature, source: 'attesta' });
      await claimFollowersSupersede(trx, a, p, signature);
      const row: CertificateRow = {
        id,
        user_id: holder.id,
        ...issued,
        file_key: p.file_key,
        file_name: p.file_name,
        file_mime: 'application/pdf',
        file_size: p.file_size,
        sha256: p.sha256,
        original_sha256: p.original_sha256,
        original_mime: p.original_mime,
        record_address: svc.chain.certificateAddress(fromHex(p.sha256)).toBase58(),
        holder_wallet: p.holder_wallet,
        verify_signature: null,
        arweave_url: null,
        nft_mint_address: null,
        mint_signature: null,
        revocation_note: null,
        created_at: now.toISOString(),
      };
      await insertCertificate(trx, row);
    }
    await appendEvent(trx, {
      certificate_id: id,
      kind: 'issued',
      actor: { role: 'issuer', wallet: a.signer, name: issuer.name, domain: profile.domain },
      source: 'attesta',
      signature,
      message: `${details.reason} It issued the details ${claimsText(p.claims)} to this wallet.`,
      details: { claims: p.claims, claims_confirmed: true },
      at: issued.updated_at,
    });
    await appendAudit(trx, { actor_wallet: a.signer, actor_role: 'issuer', action: 'issuer.issue', target: id, signature, details: { holder_wallet: p.holder_wallet, sha256: p.sha256, title: p.claims.title } });
    return { certificate_id: id, holder_wallet: p.holder_wallet, sha256: p.sha256 };
  },
  async after(svc, a) {
    const p = payloadOf<IssuePayload>(a);
    const row = (await findBySha256(svc.db, p.sha256)).find((r) => r.holder_wallet === p.holder_wallet && r.verification_status === 'verified');
    if (row && row.file_key !== p.file_key) await svc.blobs.delete(p.file_key).catch(() => undefined); // the holder's own upload holds the file
    if (row) svc.bus.publish({ certificate_id: row.id, verification_status: 'verified', step: null, step_status: null, updated_at: row.updated_at });
  },
  async abandon(svc, a) {
    await svc.blobs.delete(payloadOf<IssuePayload>(a).file_key).catch(() => undefined);
  },
};
