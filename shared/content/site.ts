// Product-wide facts shown on the information pages (plain data; the server's assistant reads it too).

export const PRODUCT_NAME = 'Attesta';
export const SUPPORT_EMAIL = 'support@attesta.app';
export const CONTACT_ADDRESS = 'India';
export const LIVE_CHAT_HOURS = 'Monday to Friday, 9am - 5pm PST';
export const PRIVACY_POLICY_LAST_UPDATED = 'April 20, 2025';
export { APP_VERSION } from './version';

/** The three wallet apps named as supported (wallet-standard wallets). */
export const SUPPORTED_WALLETS = ['Phantom', 'Solflare', 'Backpack'] as const;

/** Core journey in four steps (SEED-SPEC §1). */
export const JOURNEY_STEPS = [
  {
    title: 'Connect Wallet',
    description:
      'Sign in with Phantom, Solflare or Backpack. You sign a one-time message: no password, no transaction, no fee.',
  },
  {
    title: 'Upload Certificate',
    description:
      'Add a PDF, or a JPG, JPEG, PNG or WEBP image that we convert to PDF. Its SHA-256 fingerprint is anchored on Solana.',
  },
  {
    title: 'Mint as NFT',
    description:
      'Once verified, mint it as a soulbound NFT in your wallet, with a permanent copy on Arweave.',
  },
  {
    title: 'Share & Verify',
    description:
      'Share a public link or QR code. Anyone can check it against the chain record, without a wallet or an account.',
  },
] as const;

/** About page statistics (SEED-SPEC §2), word for word. */
export const ABOUT_STATS = [
  { value: '10+', label: 'Certificates Issued' },
  { value: '3+', label: 'Partner Institutions' },
  { value: '99.9%', label: 'Verification Success' },
  { value: '24/7', label: 'Support' },
] as const;
