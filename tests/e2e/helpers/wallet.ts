// The development wallet identity for a test: a keypair whose secret key is placed in localStorage
// before the app runs, so the wallet-standard dev wallet connects as this address.
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import type { BrowserContext, Page } from 'playwright-core';
import { loadOrCreateDemoKeys } from '../../../server/src/services/demo/keys';
import type { RunningServer } from './server';

export const DEV_WALLET_STORAGE_KEY = 'attesta-dev-wallet';
export const DEV_WALLET_NAME = 'Attesta Dev Wallet';

/** The demo holder of a server started with demo data (its keys are random per data dir). */
export function demoHolder(server: Pick<RunningServer, 'dataDir'>): Keypair {
  return loadOrCreateDemoKeys(server.dataDir).holder;
}

export function newDevKeypair() {
  return Keypair.generate();
}

export async function injectDevWallet(target: BrowserContext | Page, keypair: Keypair) {
  const secret = bs58.encode(keypair.secretKey);
  await target.addInitScript(
    ([key, value]) => {
      // Only seed once: the app may legitimately keep using it afterwards.
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    [DEV_WALLET_STORAGE_KEY, secret] as const,
  );
}

/** Connect Wallet → pick the dev wallet → the app signs in with a real signature. */
export async function signInWithDevWallet(page: Page) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  await page.getByRole('button', { name: new RegExp(DEV_WALLET_NAME) }).click();
  await page.waitForURL('**/dashboard');
}
