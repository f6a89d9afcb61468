// The development wallet's named accounts of a local installation, as the server hands them to a
// browser on its own machine (server/src/http/dev-accounts.ts) and the connect dialog lists them.

export const DEV_ACCOUNTS_PATH = '/api/dev/accounts';

export const DEV_ACCOUNT_IDS = ['holder', 'institution', 'operator'] as const;
export type DevAccountId = (typeof DEV_ACCOUNT_IDS)[number];

export interface DevAccount {
  id: DevAccountId;
  label: string;
  /** What the account can do here, in a few words. */
  description: string;
  address: string;
  /** base58 of the 64-byte secret key (seed, then public key), as the development wallet stores it. */
  secret_key: string;
}
