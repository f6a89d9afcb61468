// Names the wallet UI needs without loading the development wallet itself (dev-wallet.ts is loaded
// only on local chains).
export const DEV_WALLET_NAME = 'Attesta Dev Wallet';
export const DEV_WALLET_STORAGE_KEY = 'attesta-dev-wallet';
/** Which named account of the local installation the development wallet uses (absent: its own key). */
export const DEV_WALLET_ACCOUNT_KEY = 'attesta-dev-wallet-account';
