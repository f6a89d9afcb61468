import type { VerdictDto } from '../../../../shared/schemas/dto';
import { claimsWereChecked, parseVerificationDetails } from '../../../../shared/schemas/details';
import type { CertificateRow } from '../../db/schema';
import type { Services } from '../index';

export const MINT_MESSAGES = {
  notFound: 'Certificate not found',
  notVerified: 'Only verified certificates can be minted.',
  alreadyMinted: 'This certificate is already minted.',
  inProgress: 'This certificate is already being minted. Please wait a moment and refresh.',
  revoked: 'This certificate has been revoked and cannot be minted.',
  expired: 'This certificate has expired and cannot be minted.',
  notAnchored: 'This certificate is not recorded on chain yet.',
  otherHolder: 'This certificate is recorded for another wallet.',
  unreadable: 'The signed transaction could not be read.',
  mismatch: 'The signed transaction does not match the prepared mint. Please try again.',
  notSigned: 'The transaction is not signed by your wallet.',
  badSignatures: 'The transaction signatures are not valid.',
  requestExpired: 'This mint request has expired. Please try again.',
  requestClosed: 'This mint request is no longer valid. Please try again.',
  uriTooLong: 'The permanent storage URL is too long to fit in a mint transaction.',
} as const;

/**
 * Why a verified certificate whose public verdict is not valid cannot be minted, and what would change
 * it: the verdict's own note (or its status), then what the holder can do.
 */
export function mintNotValidMessage(v: Pick<VerdictDto, 'note' | 'status' | 'issuer'>, cert: Pick<CertificateRow, 'institution_name' | 'verification_details'>): string {
  const name = v.issuer?.name ?? cert.institution_name;
  const why = v.note ?? (v.status === 'expired' ? 'It has expired.' : `Its record on chain is ${v.status === 'not_found' ? 'missing' : v.status}.`);
  const todo =
    v.issuer && v.issuer.status !== 'approved'
      ? `It can be minted once the operator approves ${name} again; until then its public page shows it as not valid.`
      : !claimsWereChecked(parseVerificationDetails(cert.verification_details))
        ? `Ask ${name} to issue it to your wallet through Attesta, so that the details shown are its own.`
        : v.status === 'expired'
          ? `Ask ${name} for a renewed certificate.`
          : 'Its public page says why.';
  return `This certificate cannot be minted: its public verdict is not valid. ${why} ${todo}`;
}

export type MintServices = Services;
export interface MintContext extends MintServices {
  /**
   * The origin written into the NFT (metadata uri, its links, the permanent copy's URL): from
   * `permanentOrigin` (./origin.ts), never a request's Host — those links can never be changed.
   */
  permanentOrigin: string;
}

export interface PreparedMint {
  /** Base64 legacy transaction, signed by the operator and the mint; the holder signs next. */
  transaction: string;
  mint_address: string;
  /** ISO time after which submit refuses it (the blockhash window). */
  expires_at: string;
}

export interface MintResult {
  mint_address: string;
  transaction_signature: string | null;
  arweave_url: string | null;
}

/** Fault injection for tests: a crash after the attempt was claimed and before the send, or after the chain accepted it and before the DB write. */
export interface MintFaults {
  beforeSend?: () => void | Promise<void>;
  afterSend?: () => void | Promise<void>;
}
