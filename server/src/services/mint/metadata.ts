import { PublicKey } from '@solana/web3.js';
import { PACKET_DATA_SIZE } from '@solana/web3.js';
import { CERTIFICATE_SYMBOL } from '../../../../shared/program/ids';
import type { CertificateRow } from '../../db/schema';
import { BADGE_CONTENT_TYPE, badgeTier, tierLabel } from './badge';

/** Token-metadata `name` limit we keep to (wallets cut longer names; the Metaplex limit is 32). */
export const ONCHAIN_NAME_MAX = 32;

/** The title cut to `max` characters (code points), ending with … when it was cut. */
export function shortenName(title: string, max = ONCHAIN_NAME_MAX): string {
  const chars = Array.from(title.trim().replace(/\s+/g, ' '));
  if (chars.length <= max) return chars.join('');
  return `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/**
 * The on-chain name for a title such that the whole mint transaction fits in one packet: title and
 * uri share ~150 bytes, so a long uri shortens the name further. Null when even a short name does
 * not fit (the uri itself is too long: shorten ATTESTA_PUBLIC_ORIGIN / the gateway URL).
 */
export function fitOnchainName(title: string, size: (name: string) => number): string | null {
  for (let max = ONCHAIN_NAME_MAX; max >= 8; max -= 4) {
    const name = shortenName(title, max);
    if (size(name) <= PACKET_DATA_SIZE) return name;
  }
  return null;
}

/** The mint transaction's size for a name (its builders, and the SPL Token libraries, load at the first mint). */
export async function mintTxSize(p: { payer: PublicKey; holder: PublicKey; hash: Uint8Array; uri: string; programId: PublicKey }) {
  const { soulboundMintTransactionSize } = await import('../../../../shared/program/mint');
  const mint = PublicKey.unique();
  return (name: string) => soulboundMintTransactionSize({ ...p, mint, title: name });
}

/** The institution whose own key issued or confirmed the record, as read at minting (chain and issuer_profile). */
export interface MintIssuer {
  name: string;
  domain: string | null;
  domain_proven: boolean;
}

export interface NftMetadataInput {
  cert: Pick<CertificateRow, 'title' | 'institution_name' | 'program_name' | 'issue_date' | 'sha256' | 'record_address' | 'tier'>;
  /** Issuer-confirmed tier: the signing institution (none known: its domain counts as not proven). */
  issuer?: MintIssuer | null;
  verifyUrl: string;
  pdfUrl: string;
  /** The badge picture (./badge.ts), a PNG in the permanent store. */
  imageUrl: string;
  /**
   * The day the token is minted (YYYY-MM-DD, UTC): what the metadata says about the institution's domain
   * proof held on that day, and is dated so (the metadata is permanent; a proof can lapse after).
   */
  mintedOn: string;
  /** When the record expires (ISO, from the chain record), or null: it never does. */
  expiresAt: string | null;
  /** What the platform's document check flagged (the public verdict's `flags`: platform tier only). */
  flags?: readonly string[];
}

/** An ISO time's UTC day, YYYY-MM-DD. */
const utcDay = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/**
 * Whose word the record carries, in words no reader takes for more than it is: "Confirmed by" only for
 * an institution whose domain was proven when the token was minted, dated (the metadata is permanent, a
 * proof can lapse); what the platform's check flagged, where that check is all it rests on.
 */
function checkedBy(cert: Pick<CertificateRow, 'institution_name' | 'tier'>, issuer: MintIssuer | null | undefined, mintedOn: string, flags: readonly string[]): string {
  const tier = badgeTier(cert.tier, issuer);
  const name = issuer?.name ?? cert.institution_name;
  const domain = issuer?.domain ?? 'unknown';
  if (tier === 'issuer_confirmed') return `Confirmed by ${name} (${domain}, domain proven when minted, ${mintedOn}): its own key signed the record.`;
  if (tier === 'issuer_signed') return `The record was signed with ${name}'s own key, but its domain ${domain} was not proven when this token was minted, ${mintedOn}.`;
  const flagged = flags.length ? ` Attesta's check flagged (not a rejection on its own): ${flags.join(' ')}` : '';
  return `Checked by Attesta only (the file's text names its title, program, institution and holder; the issue date is the holder's own entry), not confirmed by ${cert.institution_name}.${flagged}`;
}

/**
 * The NFT's off-chain metadata (Metaplex JSON standard: what wallets and marketplaces read).
 * Deterministic — no time of day, no mint address; the mint's day only — so a retried prepare (the same
 * day) produces the same bytes and reuses the stored copy. Nothing about the holder: no name, no wallet (the token account says who
 * holds it); the title, program and institution are the certificate's own claims.
 */
export function nftMetadataJson({ cert, issuer, verifyUrl, pdfUrl, imageUrl, mintedOn, expiresAt, flags = [] }: NftMetadataInput) {
  const tier = badgeTier(cert.tier, issuer);
  const signer = tier === 'issuer_confirmed' || tier === 'issuer_signed';
  const platform = !signer;
  const expiresOn = expiresAt ? utcDay(expiresAt) : null;
  return {
    name: cert.title,
    symbol: CERTIFICATE_SYMBOL,
    description:
      `${cert.title} — ${cert.program_name}, ${cert.institution_name}, issued ${cert.issue_date}. ` +
      `${checkedBy(cert, issuer, mintedOn, platform ? flags : [])} The document's SHA-256 is anchored on Solana in the certificate record ${cert.record_address}. ` +
      `${expiresOn ? `It expires on ${expiresOn} (UTC): not valid after that day.` : 'Its record sets no expiry.'} ` +
      `This token is soulbound (non-transferable). The record on chain says whether it is still valid.`,
    image: imageUrl,
    external_url: verifyUrl,
    attributes: [
      { trait_type: 'Institution', value: cert.institution_name },
      { trait_type: 'Program', value: cert.program_name },
      { trait_type: 'Issue Date', value: cert.issue_date },
      { trait_type: 'Trust Tier', value: tierLabel(tier) },
      { trait_type: 'Expires', value: expiresOn ?? 'Never' },
      // Who signed, its domain and whether that was proven at minting (issuer tiers only).
      ...(signer
        ? [
            { trait_type: 'Signed By', value: issuer?.name ?? cert.institution_name },
            { trait_type: 'Issuer Domain', value: issuer?.domain ?? 'unknown' },
            // Dated: what held when the token was minted, not a promise about later.
            { trait_type: 'Domain Proven', value: tier === 'issuer_confirmed' ? `Yes, when minted (${mintedOn})` : `No, when minted (${mintedOn})` },
          ]
        : [{ trait_type: 'Check Flags', value: flags.length ? flags.join(' ') : 'None' }]),
      { trait_type: 'SHA-256', value: cert.sha256 },
      { trait_type: 'Record Address', value: cert.record_address },
      { trait_type: 'Verification URL', value: verifyUrl },
    ],
    properties: {
      // Metaplex's categories are media kinds: the badge is what wallets display; the PDF is the certificate.
      category: 'image',
      files: [
        { uri: imageUrl, type: BADGE_CONTENT_TYPE },
        { uri: pdfUrl, type: 'application/pdf' },
      ],
    },
  };
}
