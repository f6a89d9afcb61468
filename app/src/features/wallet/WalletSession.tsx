// Wallet half of the session: lists wallet-standard wallets (plus the development wallet on local
// chains), connects one, signs the sign-in message, signs mint transactions and disconnects on log out.
// Lazy-loaded with the login page and the signed-in layout so verifiers never download it.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { ConnectionProvider, WalletProvider, useWallet } from '@solana/wallet-adapter-react';
import { WalletReadyState, type Adapter, type WalletName } from '@solana/wallet-adapter-base';
import type { PublicKey, Transaction, VersionedTransaction } from '@solana/web3.js';
import { toast } from '../../lib/toast';
import { shortAddress, useAuth } from '../auth/AuthProvider';
import { registerDevWallet, DEV_WALLET_NAME } from './dev-wallet';
import { useClusterInfo } from './cluster';

export interface WalletChoice {
  name: string;
  icon: string;
  installed: boolean;
  url: string;
}

export interface WalletSessionValue {
  wallets: WalletChoice[];
  connecting: boolean;
  disconnecting: boolean;
  connected: boolean;
  publicKey: string | null;
  walletName: string | null;
  connectAndSignIn: (name: string) => Promise<boolean>;
  /** Connects a wallet for signing only (the session already exists), e.g. after a reload. */
  connectOnly: (name: string) => Promise<boolean>;
  /** Connects the wallet already chosen (autoConnect may not have finished), for signing. */
  ensureConnected: () => Promise<Adapter>;
  /** After a page load the chosen wallet registers a moment later: true once it is there. */
  waitForSelectedWallet: (timeoutMs?: number) => Promise<boolean>;
  signTransaction: <T extends Transaction | VersionedTransaction>(tx: T) => Promise<T>;
  /** `leave` runs between the wallet disconnect and the end of the session (e.g. navigate home
   *  first, so the route guard does not bounce to /login). */
  disconnectAndLogout: (leave?: () => void | Promise<void>) => Promise<void>;
}

const WalletSessionContext = createContext<WalletSessionValue | null>(null);

/** Resolves when the adapter is connected, even if wallet-adapter's autoConnect started the attempt. */
function connectAdapter(adapter: Adapter): Promise<PublicKey> {
  if (adapter.connected && adapter.publicKey) return Promise.resolve(adapter.publicKey);
  return new Promise<PublicKey>((resolve, reject) => {
    const onConnect = (pk: PublicKey) => {
      cleanup();
      resolve(pk);
    };
    const onError = (e: unknown) => {
      cleanup();
      reject(e);
    };
    const cleanup = () => {
      adapter.off('connect', onConnect);
      adapter.off('error', onError);
    };
    adapter.on('connect', onConnect);
    adapter.on('error', onError);
    adapter
      .connect()
      .then(() => {
        if (adapter.connected && adapter.publicKey) onConnect(adapter.publicKey);
      })
      .catch(onError);
  });
}

function WalletSessionBridge({ children }: { children: ReactNode }) {
  const { wallets, wallet, select, disconnect, connected, publicKey, disconnecting } = useWallet();
  const auth = useAuth();
  const [connecting, setConnecting] = useState(false);
  const busy = useRef(false);
  // The latest selected wallet, for async flows that outlive the render that started them.
  const walletRef = useRef(wallet);
  walletRef.current = wallet;

  const choices = useMemo<WalletChoice[]>(
    () =>
      wallets
        .map((w) => ({
          name: w.adapter.name,
          icon: w.adapter.icon,
          url: w.adapter.url,
          installed: w.readyState === WalletReadyState.Installed || w.readyState === WalletReadyState.Loadable,
        }))
        // Installed first, the development wallet last among them (real wallets are the point).
        .sort((a, b) => Number(b.installed) - Number(a.installed) || Number(a.name === DEV_WALLET_NAME) - Number(b.name === DEV_WALLET_NAME)),
    [wallets],
  );

  const connectAndSignIn = useCallback(
    async (name: string) => {
      if (busy.current) return false;
      busy.current = true;
      setConnecting(true);
      try {
        const entry = wallets.find((w) => w.adapter.name === name);
        let address: string;
        try {
          if (!entry) throw new Error(`Wallet ${name} is not available`);
          select(name as WalletName);
          address = (await connectAdapter(entry.adapter)).toBase58();
          toast.success('Wallet connected', { description: `Connected to ${shortAddress(address)}` });
        } catch (error) {
          console.error('Wallet connection failed', error);
          toast.error('Connection failed', { description: 'Failed to connect wallet. Please try again.' });
          return false;
        }
        const adapter = entry.adapter;
        try {
          if (!('signMessage' in adapter) || typeof adapter.signMessage !== 'function') {
            throw new Error(`${name} cannot sign messages`);
          }
          await auth.login(address, (message) => (adapter as Adapter & { signMessage: (m: Uint8Array) => Promise<Uint8Array> }).signMessage(message));
          return true;
        } catch {
          // login() already told the user; leave no half-connected wallet behind.
          await adapter.disconnect().catch(() => undefined);
          return false;
        }
      } finally {
        busy.current = false;
        setConnecting(false);
      }
    },
    [wallets, select, auth],
  );

  const connectOnly = useCallback(
    async (name: string) => {
      const entry = wallets.find((w) => w.adapter.name === name);
      if (!entry) return false;
      setConnecting(true);
      try {
        select(name as WalletName);
        const address = (await connectAdapter(entry.adapter)).toBase58();
        if (auth.walletAddress && address !== auth.walletAddress) {
          await entry.adapter.disconnect().catch(() => undefined);
          toast.error('Connection failed', { description: `Switch your wallet to ${shortAddress(auth.walletAddress)}, the address you signed in with.` });
          return false;
        }
        toast.success('Wallet connected', { description: `Connected to ${shortAddress(address)}` });
        return true;
      } catch (error) {
        console.error('Wallet connection failed', error);
        toast.error('Connection failed', { description: 'Failed to connect wallet. Please try again.' });
        return false;
      } finally {
        setConnecting(false);
      }
    },
    [wallets, select, auth.walletAddress],
  );

  const waitForSelectedWallet = useCallback(async (timeoutMs = 5000) => {
    // wallet-adapter keeps the chosen wallet's name (JSON) under 'walletName'.
    const stored = localStorage.getItem('walletName');
    if (!stored || stored === 'null') return !!walletRef.current;
    const end = Date.now() + timeoutMs;
    while (!walletRef.current && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    return !!walletRef.current;
  }, []);

  const ensureConnected = useCallback(async () => {
    const adapter = walletRef.current?.adapter;
    if (!adapter) throw new Error('Connect your wallet to continue.');
    await connectAdapter(adapter);
    if (auth.walletAddress && adapter.publicKey?.toBase58() !== auth.walletAddress) {
      throw new Error(`Switch your wallet to ${shortAddress(auth.walletAddress)}, the address you signed in with.`);
    }
    return adapter;
  }, [auth.walletAddress]);

  const signTransaction = useCallback(
    async <T extends Transaction | VersionedTransaction>(tx: T): Promise<T> => {
      const adapter = (await ensureConnected()) as Adapter & { signTransaction?: (t: T) => Promise<T> };
      if (typeof adapter.signTransaction !== 'function') throw new Error(`${adapter.name} cannot sign transactions`);
      return adapter.signTransaction(tx);
    },
    [ensureConnected],
  );

  const disconnectAndLogout = useCallback(async (leave?: () => void | Promise<void>) => {
    try {
      await disconnect();
      toast.success('Wallet disconnected', { description: 'Your wallet has been disconnected.' });
    } catch (error) {
      console.error('Wallet disconnection failed', error);
      toast.error('Disconnection failed', { description: 'Failed to disconnect wallet. Please try again.' });
    }
    await leave?.();
    await auth.logout();
  }, [disconnect, auth]);

  const value = useMemo<WalletSessionValue>(
    () => ({
      wallets: choices,
      connecting,
      disconnecting,
      connected,
      publicKey: publicKey?.toBase58() ?? null,
      walletName: wallet?.adapter.name ?? null,
      connectAndSignIn,
      connectOnly,
      ensureConnected,
      waitForSelectedWallet,
      signTransaction,
      disconnectAndLogout,
    }),
    [choices, connecting, disconnecting, connected, publicKey, wallet, connectAndSignIn, connectOnly, ensureConnected, waitForSelectedWallet, signTransaction, disconnectAndLogout],
  );
  return <WalletSessionContext.Provider value={value}>{children}</WalletSessionContext.Provider>;
}

// The embedded chain has no RPC endpoint; the Connection is never used for requests there.
const FALLBACK_RPC = 'http://127.0.0.1:8899';

export default function WalletSessionProvider({ children }: { children: ReactNode }) {
  const info = useClusterInfo();
  if (info.data?.isLocal) registerDevWallet();
  const onError = useCallback((error: unknown) => console.warn('Wallet error', error), []);
  return (
    <ConnectionProvider endpoint={info.data?.rpcUrl ?? FALLBACK_RPC}>
      <WalletProvider wallets={[]} autoConnect onError={onError}>
        <WalletSessionBridge>{children}</WalletSessionBridge>
      </WalletProvider>
    </ConnectionProvider>
  );
}

export function useWalletSession(): WalletSessionValue {
  const ctx = useContext(WalletSessionContext);
  if (!ctx) throw new Error('useWallet must be used within a WalletProvider');
  return ctx;
}
