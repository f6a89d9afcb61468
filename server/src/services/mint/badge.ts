import sharp from 'sharp';
import type { TrustTierName } from '../../../../shared/constants';

// The NFT's picture: a badge naming the institution and the trust tier, nothing about the holder
// (no name, no title, no wallet, no hash). Wallets and marketplaces show it to anyone who looks up
// the holder's address, and it is stored permanently; the certificate itself is the PDF copy.
// Identical for every certificate of one institution and tier, so the content-addressed store keeps
// one copy of it (putOnce) and the image says nothing that tells certificates apart.

export const BADGE_SIZE = 1000;
export const BADGE_CONTENT_TYPE = 'image/png';

/**
 * What the badge says: the record's trust tier, with issuer-confirmed split by the institution's domain
 * proof at minting — "Issuer confirmed" only when an approved institution whose domain is proven signed
 * the record with its own key; its own key without a proven domain is `issuer_signed`.
 */
export type BadgeTier = TrustTierName | 'issuer_signed';

// Said so that nobody reads the platform's check as the institution's word: a platform-checked badge
// names the institution only as what the holder claimed.
export const TIER_LABELS: Record<BadgeTier, string> = {
  issuer_confirmed: 'Issuer confirmed',
  issuer_signed: 'Signed, domain not proven',
  platform_verified: 'Checked by Attesta only',
  none: 'Not verified',
};
const TIER_HEADINGS: Record<BadgeTier, string> = {
  issuer_confirmed: 'CONFIRMED BY',
  issuer_signed: 'SIGNED WITH THE KEY OF',
  platform_verified: 'CLAIMED FROM',
  none: 'CERTIFICATE',
};
/** An unknown tier is shown as not verified. */
const knownTier = (tier: string): BadgeTier => (Object.hasOwn(TIER_LABELS, tier) ? (tier as BadgeTier) : 'none');
export const tierLabel = (tier: string) => TIER_LABELS[knownTier(tier)];

/** The badge tier of a record's tier and the confirming institution's domain proof (none known: not proven). */
export function badgeTier(tier: string, issuer: { domain_proven: boolean } | null | undefined): BadgeTier {
  if (tier === 'issuer_confirmed') return issuer?.domain_proven ? 'issuer_confirmed' : 'issuer_signed';
  return tier === 'issuer_signed' ? 'none' : knownTier(tier);
}

export interface BadgeInput {
  /** The institution: at the issuer tiers, the one whose key signed (its on-chain name); else the holder's claim. */
  institution: string;
  /** A BadgeTier (see badgeTier). */
  tier: string;
  /** Issuer tiers: the institution's domain, printed under its name with whether it is proven. */
  domain?: string | null;
  /** Where the certificate is checked (the permanent origin's host), printed small at the bottom. */
  verifyHost: string;
}

const FONT = 'sans-serif'; // fontconfig picks what the machine has (DejaVu Sans on Debian)
const COLORS = {
  background: '#0f172a',
  card: '#111c33',
  line: '#334155',
  muted: '#94a3b8',
  text: '#f8fafc',
  issuer_confirmed: '#22c55e',
  issuer_signed: '#f59e0b',
  platform_verified: '#38bdf8',
  none: '#94a3b8',
} as const;

/** Text as SVG character data: markup escaped, characters XML 1.0 cannot hold (and bidi controls) dropped. */
function xmlText(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff]/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '') // lone surrogate halves
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * Estimated advance of one character in em of DejaVu Sans Bold (no font metrics here); generous,
 * so an estimated line is never wider than the rendered one.
 */
export function charEm(c: string): number {
  if (/[WM@]/.test(c)) return 1.05;
  if (/[mw]/.test(c)) return 1.0;
  if (/[A-Z0-9]/.test(c) || /[^\u0000-\u024f]/.test(c)) return 0.8;
  if (/[ijlt.,:;'|!I ]/.test(c)) return 0.4;
  return 0.7;
}
const emWidth = (s: string) => Array.from(s).reduce((n, c) => n + charEm(c), 0);

/**
 * Breaks `text` into at most `maxLines` lines no wider than `maxEm` (estimated, see charEm), at
 * spaces where it can; the last line ends with … when text is left over.
 */
export function wrapLines(text: string, maxEm: number, maxLines: number): string[] {
  const words = text.trim().replace(/\s+/g, ' ').split(' ').filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    let w = word;
    while (emWidth(w) > maxEm) {
      // A word wider than a line: break it where it stops fitting.
      if (line) lines.push(line);
      line = '';
      const chars = Array.from(w);
      let k = 1;
      while (k < chars.length && emWidth(chars.slice(0, k + 1).join('')) <= maxEm) k++;
      lines.push(chars.slice(0, k).join(''));
      w = chars.slice(k).join('');
    }
    if (!line) line = w;
    else if (emWidth(`${line} ${w}`) <= maxEm) line += ` ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = Array.from(kept[maxLines - 1]);
  while (last.length > 1 && emWidth(`${last.join('')}…`) > maxEm) last.pop();
  kept[maxLines - 1] = `${last.join('').trimEnd()}…`;
  return kept;
}

/** The institution's lines and font size: as large as fits (two lines at 64 px and up, else three). */
function institutionLayout(institution: string, width: number) {
  for (const size of [72, 64, 56, 48, 42]) {
    const maxLines = size >= 64 ? 2 : 3;
    const lines = wrapLines(institution, width / size, maxLines);
    if (!lines[lines.length - 1].endsWith('…') || size === 42) return { size, lines };
  }
  throw new Error('unreachable');
}

/**
 * The picture is permanent and says what held when it was minted: a later revocation, suspension or
 * expiry cannot change it, so it says so and where to check now (the metadata carries the dates).
 */
export const BADGE_FOOTER = 'Status at minting · check now at';

/** The badge as SVG markup (what is rendered; tests read its text). */
export function badgeSvg({ institution, tier, domain, verifyHost }: BadgeInput): string {
  const S = BADGE_SIZE;
  const kind = knownTier(tier);
  const accent = COLORS[kind];
  const label = tierLabel(tier);
  const inst = institutionLayout(institution || 'Unnamed institution', S - 200);
  // The issuer tiers print the institution's domain under its name, and whether it is proven.
  const domainLine = kind === 'issuer_confirmed' || kind === 'issuer_signed' ? `${wrapLines(domain || 'no domain', 17, 1)[0] ?? ''} · ${kind === 'issuer_confirmed' ? 'domain proven' : 'domain not proven'}` : null;
  // Lines centred on y = 680 (665 above a domain line), between the label and the tier.
  const lineHeight = Math.round(inst.size * 1.2);
  const centre = domainLine ? 660 : 680;
  const instTop = Math.round(centre - ((inst.lines.length - 1) * lineHeight) / 2 + inst.size * 0.35);
  const instLines = inst.lines
    .map((l, i) => `<text x="${S / 2}" y="${instTop + i * lineHeight}" font-size="${inst.size}" font-weight="bold" fill="${COLORS.text}">${xmlText(l)}</text>`)
    .join('\n    ');
  const pillWidth = Math.round(emWidth(label) * 40 * 0.92 + 100);
  const host = wrapLines(verifyHost, 22, 1)[0] ?? '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}" viewBox="0 0 ${S} ${S}">
  <rect width="${S}" height="${S}" fill="${COLORS.background}"/>
  <rect x="40" y="40" width="${S - 80}" height="${S - 80}" rx="48" fill="${COLORS.card}" stroke="${COLORS.line}" stroke-width="4"/>
  <g font-family="${FONT}" text-anchor="middle">
    <text x="${S / 2}" y="150" font-size="44" font-weight="bold" letter-spacing="14" fill="${COLORS.muted}">ATTESTA</text>
    <circle cx="${S / 2}" cy="330" r="120" fill="none" stroke="${accent}" stroke-width="14"/>
    <circle cx="${S / 2}" cy="330" r="94" fill="${accent}" fill-opacity="0.16"/>
    <path d="M ${S / 2 - 52} 332 L ${S / 2 - 14} 370 L ${S / 2 + 58} 292" fill="none" stroke="${accent}" stroke-width="22" stroke-linecap="round" stroke-linejoin="round"/>
    <text x="${S / 2}" y="520" font-size="36" letter-spacing="6" fill="${COLORS.muted}">${TIER_HEADINGS[kind]}</text>
    ${instLines}${domainLine ? `\n    <text x="${S / 2}" y="786" font-size="28" fill="${COLORS.muted}">${xmlText(domainLine)}</text>` : ''}
    <rect x="${(S - pillWidth) / 2}" y="808" width="${pillWidth}" height="72" rx="36" fill="${accent}" fill-opacity="0.18" stroke="${accent}" stroke-width="3"/>
    <text x="${S / 2}" y="858" font-size="40" font-weight="bold" fill="${accent}">${xmlText(label)}</text>
    <text x="${S / 2}" y="930" font-size="26" fill="${COLORS.muted}">${BADGE_FOOTER} ${xmlText(host)}</text>
  </g>
</svg>`;
}

/** The badge rendered to PNG, BADGE_SIZE square. Same input, same bytes (a retried mint reuses its copy). */
export async function renderBadgePng(input: BadgeInput): Promise<Uint8Array> {
  const png = await sharp(Buffer.from(badgeSvg(input)), { density: 72 }).png({ compressionLevel: 9, adaptiveFiltering: false }).toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
