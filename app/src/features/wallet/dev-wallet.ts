// The development wallet: a wallet-standard wallet backed by a local keypair, offered only when the
// server runs on a local chain. wallet-adapter-react lists it like Phantom or Solflare, and the same
// identity comes back on every visit because the secret key lives in localStorage (tests inject one
// with page.addInitScript before the app loads).
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
import { Keypair, Transaction, VersionedTransaction } from '@solana/web3.js';
import nacl from 'tweetnacl';
import bs58 from 'bs58';

export const DEV_WALLET_NAME = 'Attesta Dev Wallet';
export const DEV_WALLET_STORAGE_KEY = 'attesta-dev-wallet';

const CHAINS = ['solana:localnet', 'solana:devnet'] as const;
const FEATURES = ['solana:signMessage', 'solana:signTransaction'] as const;

// A small shield mark; wallet-standard requires a data: URI icon.
const ICON = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4f46e5"/><path d="M16 6l8 3v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V9z" fill="#fff"/><path d="M12.5 16l2.5 2.5 4.5-5" stroke="#4f46e5" stroke-width="2" fill="none" stroke-linecap="round"/></svg>',
)}` as WalletIcon;

/** Reads the stored key (base58 or a JSON byte array, as `solana-keygen` writes), or makes and stores one. */
export function loadDevKeypair(storage: Storage = localStorage): Keypair {
  const raw = storage.getItem(DEV_WALLET_STORAGE_KEY);
  if (raw) {
    try {
      const bytes = raw.trim().startsWith('[') ? Uint8Array.from(JSON.parse(raw) as number[]) : bs58.decode(raw.trim());
      return Keypair.fromSecretKey(bytes);
    } catch {
      // A corrupt value should not lock the developer out: fall through and replace it.
    }
  }
  const keypair = Keypair.generate();
  storage.setItem(DEV_WALLET_STORAGE_KEY, bs58.encode(keypair.secretKey));
  return keypair;
}

class DevWallet implements Wallet {
  readonly version = '1.0.0' as const;
  readonly name = DEV_WALLET_NAME;
  readonly icon = ICON;
  readonly chains = CHAINS;
  #accounts: WalletAccount[] = [];
  #listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  #keypair: Keypair | null = null;

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

  // No approval prompt: the key belongs to this browser profile and exists only on local chains.
  #connect: StandardConnectMethod = async () => {
    if (!this.#accounts.length) {
      this.#keypair = loadDevKeypair();
      this.#accounts = [
        new ReadonlyWalletAccount({
          address: this.#keypair.publicKey.toBase58(),
          publicKey: this.#keypair.publicKey.toBytes(),
          chains: CHAINS,
          features: FEATURES,
        }),
      ];
      this.#emit('change', { accounts: this.accounts });
    }
    return { accounts: this.accounts };
  };

  #disconnect = async () => {
    this.#accounts = [];
    this.#keypair = null;
    this.#emit('change', { accounts: this.accounts });
  };

  #requireKeypair(address: string): Keypair {
    if (!this.#keypair || this.#keypair.publicKey.toBase58() !== address) throw new Error('Wallet not connected');
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
      const bytes = Uint8Array.from(transaction);
      // Version byte after the signatures tells legacy from v0; try v0 first like wallets do.
      let signed: Uint8Array;
      try {
        const tx = VersionedTransaction.deserialize(bytes);
        if (tx.version === 'legacy') throw new Error('legacy');
        tx.sign([keypair]);
        signed = tx.serialize();
      } catch {
        const tx = Transaction.from(bytes);
        tx.partialSign(keypair);
        signed = tx.serialize({ requireAllSignatures: false, verifySignatures: false });
      }
      outputs.push({ signedTransaction: signed });
    }
    return outputs;
  };
}

let registered = false;
/** Registers the development wallet once per page; call it only on local chains. */
export function registerDevWallet() {
  if (registered || typeof window === 'undefined') return;
  registered = true;
  registerWallet(new DevWallet());
}
