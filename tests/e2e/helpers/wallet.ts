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

/**
 * Connect Wallet → pick the dev wallet → the app signs in with a real signature and lands on the
 * wallet's own page: `/dashboard`, or `/operator` for an operator, `/institution` for an institution.
 */
export async function signInWithDevWallet(page: Page, landing: '/dashboard' | '/institution' | '/operator' = '/dashboard') {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  await page.getByRole('button', { name: new RegExp(DEV_WALLET_NAME) }).click();
  await page.waitForURL(`**${landing}`);
}

export const REFUSING_WALLET_NAME = 'Refusing Wallet';

/**
 * A second wallet-standard wallet in the page, REFUSING_WALLET_NAME: the development wallet in all but
 * `standard:disconnect`, which throws (as a wallet extension that fails or is locked may). Registered
 * beside the dev wallet once the app has registered that one.
 */
export async function injectRefusingWallet(target: BrowserContext | Page) {
  await target.addInitScript((name) => {
    let registered = false;
    window.addEventListener('wallet-standard:register-wallet', (event) => {
      if (registered) return;
      const callback = (event as CustomEvent<(api: { register(w: unknown): () => void }) => void>).detail;
      let dev: { name: string; icon: string; chains: string[]; accounts: unknown[]; features: Record<string, unknown> } | undefined;
      callback({ register: (w) => ((dev = w as typeof dev), () => undefined) });
      if (!dev || dev.name === name) return;
      const inner = dev;
      registered = true;
      const refusing = {
        version: '1.0.0',
        name,
        icon: inner.icon,
        chains: inner.chains,
        get accounts() {
          return inner.accounts;
        },
        get features() {
          return {
            ...inner.features,
            'standard:disconnect': { version: '1.0.0', disconnect: () => Promise.reject(new Error('The wallet refused to disconnect')) },
          };
        },
      };
      // After this event's own listeners (the app's registry among them) have run.
      setTimeout(() => window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: ({ register }: { register(w: unknown): void }) => register(refusing) })));
    });
  }, REFUSING_WALLET_NAME);
}
