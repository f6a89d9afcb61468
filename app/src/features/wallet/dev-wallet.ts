// The development wallet: a wallet-standard wallet backed by a local keypair, offered only when the
// server runs on a local chain (WalletSession loads this module only then). The app lists it like
// Phantom or Solflare, and the same identity comes back on every visit because the secret key lives
// in localStorage (tests inject one with page.addInitScript before the app loads). An ed25519 key
// (tweetnacl) and the transaction's own bytes (./transaction) are all it needs: no @solana/web3.js.
// It can also act as one of the installation's named accounts (Holder, Institution, Operator; see
// ./dev-accounts): the choice is kept in localStorage, the key is fetched from the server at each connect
// (the server hands it only to a browser on its own machine), so a wiped installation is never signed
// for with a stale key.
import { registerWallet, ReadonlyWalletAccount } from '@wallet-standard/wallet';
import type { Wallet, WalletAccount, WalletIcon } from '@wallet-standard/base';
import type {
  StandardConnectFeature,
  StandardConnectMethod,
  StandardDisconnectFeature,
  StandardEventsFeature,
  StandardEventsListeners,
  StandardEventsNames,
  StandardEventsOnMethod,
} from '@wallet-standard/features';
import type {
  SolanaSignMessageFeature,
  SolanaSignMessageMethod,
  SolanaSignMessageOutput,
  SolanaSignTransactionFeature,
  SolanaSignTransactionMethod,
  SolanaSignTransactionOutput,
} from '@solana/wallet-standard-features';
import nacl from 'tweetnacl';
import bs58 from 'bs58';
import { fetchDevAccounts, type DevAccountId } from './dev-accounts';
import { DEV_WALLET_ACCOUNT_KEY, DEV_WALLET_NAME, DEV_WALLET_STORAGE_KEY } from './names';
import { addSignature } from './transaction';

export { DEV_WALLET_NAME, DEV_WALLET_STORAGE_KEY };

/** An ed25519 keypair in Solana's layout: a 64-byte secret key (seed, then public key). */
export interface DevKeypair {
  publicKey: Uint8Array;
  secretKey: Uint8Array;
  address: string;
}

function keypair(secretKey: Uint8Array): DevKeypair {
  // As web3.js's Keypair.fromSecretKey: the public half must be the seed's own public key.
  if (secretKey.length !== 64) throw new Error('bad secret key size');
  const derived = nacl.sign.keyPair.fromSeed(secretKey.slice(0, 32));
  if (!derived.publicKey.every((b, i) => b === secretKey[32 + i])) throw new Error('provided secretKey is invalid');
  return { publicKey: derived.publicKey, secretKey: derived.secretKey, address: bs58.encode(derived.publicKey) };
}

const CHAINS = ['solana:localnet', 'solana:devnet'] as const;
const FEATURES = ['solana:signMessage', 'solana:signTransaction'] as const;

// A small shield mark; wallet-standard requires a data: URI icon.
const ICON = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4f46e5"/><path d="M16 6l8 3v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V9z" fill="#fff"/><path d="M12.5 16l2.5 2.5 4.5-5" stroke="#4f46e5" stroke-width="2" fill="none" stroke-linecap="round"/></svg>',
)}` as WalletIcon;

/** Reads the stored key (base58 or a JSON byte array, as `solana-keygen` writes), or makes and stores one. */
export function loadDevKeypair(storage: Storage = localStorage): DevKeypair {
  const raw = storage.getItem(DEV_WALLET_STORAGE_KEY);
  if (raw) {
    try {
      const bytes = raw.trim().startsWith('[') ? Uint8Array.from(JSON.parse(raw) as number[]) : bs58.decode(raw.trim());
      return keypair(bytes);
    } catch {
      // A corrupt value should not lock the developer out: fall through and replace it.
    }
  }
  const fresh = keypair(nacl.sign.keyPair().secretKey);
  storage.setItem(DEV_WALLET_STORAGE_KEY, bs58.encode(fresh.secretKey));
  return fresh;
}

/** The named account chosen for this browser, or null for the wallet's own key. */
export function chosenDevAccount(storage: Storage = localStorage): DevAccountId | null {
  const v = storage.getItem(DEV_WALLET_ACCOUNT_KEY);
  return v === 'holder' || v === 'institution' || v === 'operator' ? v : null;
}

/** The keypair to sign with: the chosen named account's (fetched now), or this browser's own. */
async function currentKeypair(): Promise<DevKeypair> {
  const id = chosenDevAccount();
  if (!id) return loadDevKeypair();
  const answer = await fetchDevAccounts();
  if (!answer.ok) throw new Error(answer.reason);
  const account = answer.accounts.find((a) => a.id === id);
  if (!account) throw new Error(`This installation has no ${id} account.`);
  return keypair(bs58.decode(account.secret_key));
}

class DevWallet implements Wallet {
  readonly version = '1.0.0' as const;
  readonly name = DEV_WALLET_NAME;
  readonly icon = ICON;
  readonly chains = CHAINS;
  #accounts: WalletAccount[] = [];
  #listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  #keypair: DevKeypair | null = null;

  get accounts() {
    return this.#accounts.slice();
  }

  get features(): StandardConnectFeature &
    StandardDisconnectFeature &
    StandardEventsFeature &
    SolanaSignMessageFeature &
    SolanaSignTransactionFeature {
    return {
      'standard:connect': { version: '1.0.0', connect: this.#connect },
      'standard:disconnect': { version: '1.0.0', disconnect: this.#disconnect },
      'standard:events': { version: '1.0.0', on: this.#on },
      'solana:signMessage': { version: '1.0.0', signMessage: this.#signMessage },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signTransaction: this.#signTransaction,
      },
    };
  }

  #emit<E extends StandardEventsNames>(event: E, ...args: Parameters<StandardEventsListeners[E]>) {
    this.#listeners.get(event)?.forEach((listener) => listener(...args));
  }

  #on: StandardEventsOnMethod = (event, listener) => {
    const fn = listener as (...args: unknown[]) => void;
    if (!this.#listeners.has(event)) this.#listeners.set(event, new Set());
    this.#listeners.get(event)!.add(fn);
    return () => void this.#listeners.get(event)?.delete(fn);
  };

  #use(kp: DevKeypair) {
    this.#keypair = kp;
    this.#accounts = [new ReadonlyWalletAccount({ address: kp.address, publicKey: kp.publicKey, chains: CHAINS, features: FEATURES })];
    this.#emit('change', { accounts: this.accounts });
  }

  // No approval prompt: the key belongs to this browser profile (or this machine's installation) and
  // exists only on local chains.
  #connect: StandardConnectMethod = async () => {
    if (!this.#accounts.length) this.#use(await currentKeypair());
    return { accounts: this.accounts };
  };

  /** Switches to the chosen account at once when connected (the next connect uses it otherwise). */
  async switchAccount() {
    if (!this.#accounts.length) return;
    const kp = await currentKeypair();
    if (kp.address !== this.#keypair?.address) this.#use(kp);
  }

  #disconnect = async () => {
    this.#accounts = [];
    this.#keypair = null;
    this.#emit('change', { accounts: this.accounts });
  };

  #requireKeypair(address: string): DevKeypair {
    if (!this.#keypair || this.#keypair.address !== address) throw new Error('Wallet not connected');
    return this.#keypair;
  }

  #signMessage: SolanaSignMessageMethod = async (...inputs) => {
    const outputs: SolanaSignMessageOutput[] = [];
    for (const { account, message } of inputs) {
      const keypair = this.#requireKeypair(account.address);
      outputs.push({ signedMessage: message, signature: nacl.sign.detached(message, keypair.secretKey) });
    }
    return outputs;
  };

  #signTransaction: SolanaSignTransactionMethod = async (...inputs) => {
    const outputs: SolanaSignTransactionOutput[] = [];
    for (const { account, transaction } of inputs) {
      const keypair = this.#requireKeypair(account.address);
      // Legacy or v0: the keypair's signature goes in its slot, every other byte stays as prepared.
      const signed = addSignature(Uint8Array.from(transaction), keypair.publicKey, (message) => nacl.sign.detached(message, keypair.secretKey));
      outputs.push({ signedTransaction: signed });
    }
    return outputs;
  };
}

let registered: DevWallet | null = null;
/** Registers the development wallet once per page; call it only on local chains. */
export function registerDevWallet() {
  if (registered || typeof window === 'undefined') return;
  registered = new DevWallet();
  registerWallet(registered);
}

/** Chooses a named account of this installation (null: the wallet's own key) for the next connect. */
export async function selectDevAccount(id: DevAccountId | null, storage: Storage = localStorage) {
  if (id) storage.setItem(DEV_WALLET_ACCOUNT_KEY, id);
  else storage.removeItem(DEV_WALLET_ACCOUNT_KEY);
  await registered?.switchAccount();
}
