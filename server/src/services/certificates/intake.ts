import { PublicKey } from '@solana/web3.js';
import { MESSAGES } from '../../../../shared/constants';
import { fromHex } from '../../../../shared/program/codec';
import type { CertificateDetails } from '../../../../shared/schemas/certificate';
import type { CertificateRow, UserRow } from '../../db/schema';
import { isUniqueViolation } from '../../db/dialect';
import { DomainError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { ChainError, type ChainReceipt } from '../chain';
import { FileRejectedError, inspectUpload, rememberCheckedPdf, safeFileName, sha256Hex, toPdf } from '../files/index.js';
import { checkDailyAnchors, lockAnchorsOf, reserveCreation, type CreationContext } from './limits';
import { AWAITING_VERIFICATION, NO_INSTITUTION, claimsOf, insertCertificate, liveRowOfSha256, updateCertificate } from '../../db/certificates';
import { reconcileCertificate } from '../chain-sync/reconcile';

export const certificateFileKey = (id: string) => `certificates/${id}.pdf`;

const EXT_TYPE: Record<string, string> = { pdf: 'pdf', jpg: 'jpeg', jpeg: 'jpeg', png: 'png', webp: 'webp', gif: 'gif' };
const TYPE_LABEL: Record<string, string> = { pdf: 'a PDF', jpeg: 'a JPG image', png: 'a PNG image', webp: 'a WEBP image', gif: 'a GIF image' };

/**
 * Refusals of an upload by its bytes become BAD_REQUEST with the files service's message. A file
 * whose name claims one known type while its bytes are another (a PNG renamed .pdf) is refused
 * as disguised: what the holder thinks they uploaded is not what would be anchored.
 */
export async function readUpload(file: File, kind: 'certificate' | 'photo') {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const info = await badRequestIfRefused(inspectUpload(bytes, { kind }));
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.name ?? '')?.[1]?.toLowerCase();
  const claimed = ext ? EXT_TYPE[ext] : undefined;
  if (claimed && claimed !== info.type) {
    throw new DomainError('BAD_REQUEST', `This file is named .${ext} but its content is ${TYPE_LABEL[info.type] ?? info.type}. Please upload the original file.`);
  }
  return { bytes, info };
}

/**
 * A certificate file as it is anchored: the upload's checks (readUpload), an image converted to PDF,
 * and the hashes. A holder's upload and an institution's issue both read their file here.
 */
export async function readCertificateFile(file: File): Promise<{ pdf: Uint8Array; sha256: string; originalSha256: string | null; originalMime: string | null }> {
  const { bytes, info } = await readUpload(file, 'certificate');
  const pdf = await badRequestIfRefused(toPdf(bytes, info.type)); // a PDF is returned as it is
  const sha256 = sha256Hex(pdf);
  // The document reader will read these bytes next: it need not measure their streams again.
  if (info.pdf) rememberCheckedPdf(sha256, info.pdf);
  return { pdf, sha256, originalSha256: info.type === 'pdf' ? null : sha256Hex(bytes), originalMime: info.type === 'pdf' ? null : info.mime };
}

const conflict = (message: string) => new DomainError('CONFLICT', message);

/** A file refused by its bytes is the client's to fix: BAD_REQUEST with the files service's message. */
function badRequestIfRefused<T>(work: Promise<T>): Promise<T> {
  return work.catch((e) => {
    throw e instanceof FileRejectedError ? new DomainError('BAD_REQUEST', e.message, { cause: e }) : e;
  });
}

/**
 * Adds a certificate for `user` (tRPC certificate.create and REST POST /api/v1/certificates both come
 * here): the holder must have a profile name (the document check looks for it), then the creation
 * limits (./limits.ts) — the wallet's and the client's pace and refusals, then the wallet's daily
 * anchoring budget — before a byte of the upload is read; a refused request writes nothing.
 */
export async function createCertificate(ctx: CreationContext, user: UserRow, input: CertificateDetails & { certificate_file: File }): Promise<CertificateRow> {
  // Checked before the pace and budget: nothing is spent on a certificate that could not be verified.
  if (!user.full_name.trim()) throw new DomainError('PRECONDITION_FAILED', MESSAGES.profileNameRequired);
  const reservation = reserveCreation(ctx, user);
  try {
    await checkDailyAnchors(ctx, user);
    return await addCertificate(ctx, user, input);
  } catch (e) {
    // The file was read and refused (BAD_REQUEST), or is someone's already (CONFLICT): a refusal.
    if (e instanceof DomainError && (e.code === 'BAD_REQUEST' || e.code === 'CONFLICT')) reservation.refused();
    else reservation.release();
    throw e;
  }
}

/**
 * validate → convert → hash → refuse a hash held by someone else → store blob → (anchor + rows) in
 * one DB transaction. Any failure after the blob write deletes the blob and undoes the chain write.
 */
async function addCertificate(svc: CreationContext, user: UserRow, input: CertificateDetails & { certificate_file: File }): Promise<CertificateRow> {
  const { db, chain, blobs } = svc;
  const { pdf, sha256, originalSha256, originalMime } = await readCertificateFile(input.certificate_file);
  const hash = fromHex(sha256);

  // A file someone already added counts as theirs while their row is live. An institution that issued
  // the file to its rightful holder superseded earlier claims: the record's holder may add it then.
  const record = await chain.readCertificate(hash);
  const recordIsMine = !!record && record.holder.toBase58() === user.wallet_address;
  let live = await liveRowOfSha256(db, sha256);
  if (live && recordIsMine && live.holder_wallet !== user.wallet_address) {
    // The chain follower may not have marked the earlier claimant's row superseded yet: do it now.
    await reconcileCertificate(svc, sha256);
    live = await liveRowOfSha256(db, sha256);
  }
  // The owner is told which certificate it is (to open it); anyone else learns nothing of another's.
  if (live) throw live.user_id === user.id ? new DomainError('CONFLICT', MESSAGES.alreadyAdded, { certificateId: live.id }) : conflict(MESSAGES.alreadyRegisteredByOther);
  if (record && !recordIsMine) throw conflict(MESSAGES.alreadyRegisteredByOther);
  // The record already names this wallet: issued to it by an institution (whose earlier claimants'
  // rows are superseded), or anchored for it before a crash lost the row. Adopt it: nothing is anchored,
  // and the verification run finds the record as it is (issuer-confirmed: verified at that tier).
  const adopt = record !== null;

  const id = newId('c_');
  const fileKey = certificateFileKey(id);
  const now = new Date().toISOString();
  const row: CertificateRow = {
    id,
    user_id: user.id,
    ...claimsOf(input),
    ...AWAITING_VERIFICATION,
    file_key: fileKey,
    file_name: safeFileName(input.certificate_file.name, 'pdf'), // display/download name only, never a path
    file_mime: 'application/pdf',
    file_size: pdf.length,
    sha256,
    original_sha256: originalSha256,
    original_mime: originalMime,
    record_address: chain.certificateAddress(hash).toBase58(),
    holder_wallet: user.wallet_address,
    anchor_signature: null,
    verify_signature: null,
    arweave_url: null,
    nft_mint_address: null,
    mint_signature: null,
    ...NO_INSTITUTION,
    created_at: now,
    updated_at: now,
  };

  await blobs.put(fileKey, pdf, 'application/pdf');
  let receipt: ChainReceipt | null = null;
  try {
    await db.transaction().execute(async (trx) => {
      // The budget again, exact this time: this holder's other creations wait for this commit.
      await lockAnchorsOf(trx, user);
      await checkDailyAnchors(svc, user, trx);
      await insertCertificate(trx, row);
      await svc.queue.enqueue(id, trx);
      if (!adopt) {
        // Last inside the transaction: if it fails the rows roll back; if the commit fails we undo it.
        receipt = await chain.anchorCertificate({ hash, holder: new PublicKey(user.wallet_address) }, { db: trx, kind: 'anchor_certificate', certificateId: id });
        row.anchor_signature = receipt.signature;
        await updateCertificate(trx, id, { anchor_signature: receipt.signature });
      }
      svc.faults.hit('before-commit');
    });
  } catch (e) {
    (receipt as ChainReceipt | null)?.undo?.();
    await blobs.delete(fileKey).catch(() => undefined);
    if (e instanceof ChainError && e.errorName === 'HashAlreadyAnchored') throw conflict(MESSAGES.alreadyRegisteredByOther);
    if (isUniqueViolation(e, 'certificate', 'sha256')) throw conflict(MESSAGES.alreadyRegisteredByOther);
    throw e;
  }
  svc.faults.hit('after-commit');
  svc.queue.kick();
  return row;
}
