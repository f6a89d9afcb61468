// Wallet half of the session: lists wallet-standard wallets (plus the development wallet on local
// chains, and Solana Mobile's wallet on an Android browser), connects one, signs the sign-in message,
// signs mint transactions and disconnects on log out. Lazy-loaded with the login page and the
// signed-in layout so verifiers never download it.
//
// It talks to wallets through the Wallet Standard directly (what wallet-adapter-react did underneath,
// with the same stored choice, 'walletName', and the same silent reconnect after a reload). A signed-in
// page therefore carries no @solana/web3.js: signing a message needs none, and a transaction goes to
// the wallet as the bytes the server prepared and comes back signed (mint/api.ts).
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { DEPRECATED_getWallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import {
  StandardConnect,
  StandardDisconnect,
  StandardEvents,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
} from '@wallet-standard/features';
import {
  SolanaSignAndSendTransaction,
  SolanaSignMessage,
  SolanaSignTransaction,
  type SolanaSignMessageFeature,
  type SolanaSignTransactionFeature,
} from '@solana/wallet-standard-features';
import { toast } from '../../lib/toast';
import { shortAddress, useAuth } from '../auth/AuthProvider';
import { DEV_WALLET_NAME } from './names';
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
  /** Connects the wallet already chosen (the silent reconnect may not have finished), for signing. */
  ensureConnected: () => Promise<WalletAccount>;
  /** After a page load the chosen wallet registers a moment later: true once it is there. */
  waitForSelectedWallet: (timeoutMs?: number) => Promise<boolean>;
  /** The wallet signs a serialized transaction (legacy or v0) and returns it serialized. */
  signTransaction: (transaction: Uint8Array) => Promise<Uint8Array>;
  /** `leave` runs between the wallet disconnect and the end of the session (e.g. navigate home
   *  first, so the route guard does not bounce to /login). */
  disconnectAndLogout: (leave?: () => void | Promise<void>) => Promise<void>;
}

const WalletSessionContext = createContext<WalletSessionValue | null>(null);

type ConnectableWallet = Wallet & { features: StandardConnectFeature & StandardEventsFeature };

/** The wallets wallet-adapter listed: connect, events, and a way to sign transactions. */
function isCompatible(wallet: Wallet): wallet is ConnectableWallet {
  return (
    StandardConnect in wallet.features &&
    StandardEvents in wallet.features &&
    (SolanaSignAndSendTransaction in wallet.features || SolanaSignTransaction in wallet.features)
  );
}

/** The optional features this app uses, when the wallet has them. */
function optional(wallet: Wallet) {
  return wallet.features as Partial<StandardDisconnectFeature & SolanaSignMessageFeature & SolanaSignTransactionFeature>;
}

const MOBILE_WALLET_ADAPTER = 'Mobile Wallet Adapter';
const STANDARD_URL = 'https://github.com/solana-labs/wallet-standard';
// wallet-adapter-react's key and format (a JSON string): the choice survives the switch.
const WALLET_NAME_KEY = 'walletName';

function readWalletName(): string | null {
  try {
    const value = localStorage.getItem(WALLET_NAME_KEY);
    return value ? (JSON.parse(value) as string | null) : null;
  } catch (error) {
    console.error(error);
    return null;
  }
}

function writeWalletName(name: string | null) {
  try {
    if (name === null) localStorage.removeItem(WALLET_NAME_KEY);
    else localStorage.setItem(WALLET_NAME_KEY, JSON.stringify(name));
  } catch (error) {
    console.error(error);
  }
}

/** An Android browser (not an app's web view): where Solana Mobile's wallet adapter works. */
function isAndroidBrowser() {
  const ua = globalThis.navigator?.userAgent ?? '';
  const webView = /(WebView|Version\/.+(Chrome)\/(\d+)\.(\d+)\.(\d+)\.(\d+)|; wv\).+(Chrome)\/(\d+)\.(\d+)\.(\d+)\.(\d+))/i;
  return /android/i.test(ua) && !webView.test(ua);
}

function useStandardWallets(): ConnectableWallet[] {
  const registry = useMemo(() => DEPRECATED_getWallets(), []);
  const [wallets, setWallets] = useState(() => registry.get().filter(isCompatible));
  useEffect(() => {
    const update = () => setWallets(registry.get().filter(isCompatible));
    const offs = [registry.on('register', update), registry.on('unregister', update)];
    update();
    return () => offs.forEach((off) => off());
  }, [registry]);
  return wallets;
}

function onWalletError(error: unknown) {
  console.warn('Wallet error', error);
}

/** Connects `wallet` (no prompt when it already shows an account) and returns its first account. */
async function connectWallet(wallet: ConnectableWallet, silent = false): Promise<WalletAccount> {
  if (!wallet.accounts.length) await wallet.features[StandardConnect].connect(silent ? { silent: true } : undefined);
  const account = wallet.accounts[0];
  if (!account) throw new Error(`${wallet.name} shared no account`);
  return account;
}

export default function WalletSessionProvider({ children }: { children: ReactNode }) {
  const info = useClusterInfo();
  const wallets = useStandardWallets();
  const auth = useAuth();

  // The development wallet (local chains) and Solana Mobile's (an Android browser with no wallet in
  // the page) are wallet-standard wallets too, loaded only where they are offered.
  const isLocal = !!info.data?.isLocal;
  useEffect(() => {
    if (isLocal) void import('./dev-wallet').then((m) => m.registerDevWallet());
  }, [isLocal]);
  const noWalletInPage = !wallets.some((w) => w.name !== MOBILE_WALLET_ADAPTER);
  const rpcUrl = info.data?.rpcUrl;
  useEffect(() => {
    if (info.data && noWalletInPage && isAndroidBrowser()) void import('./mobile').then((m) => m.registerMobileWalletAdapter(rpcUrl));
  }, [info.data, noWalletInPage, rpcUrl]);

  const [walletName, setWalletNameState] = useState(readWalletName);
  const setWalletName = useCallback((name: string | null) => {
    setWalletNameState(name);
    writeWalletName(name);
  }, []);
  const wallet = useMemo(() => wallets.find((w) => w.name === walletName) ?? null, [wallets, walletName]);
  // The latest selected wallet, for async flows that outlive the render that started them.
  const walletRef = useRef(wallet);
  walletRef.current = wallet;

  const [connection, setConnection] = useState<{ wallet: ConnectableWallet; account: WalletAccount } | null>(null);
  const [connecting, setConnecting] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const busy = useRef(false);
  const disconnectingRef = useRef(false);
  // Wallets this provider is disconnecting: their own 'change' event is not news.
  const leaving = useRef(new WeakSet<Wallet>());
  // Once the holder picks a wallet here, connecting is the pick's business, not the silent reconnect's.
  const userSelected = useRef(false);
  const unloading = useRef(false);
  useEffect(() => {
    const onUnload = () => (unloading.current = true);
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, []);

  const connect = useCallback(async (w: ConnectableWallet, silent = false) => {
    const account = await connectWallet(w, silent);
    setConnection({ wallet: w, account });
    return account;
  }, []);

  /**
   * Disconnects `w`; the choice is forgotten, as when a wallet disconnects itself. False when the
   * wallet refused (it is forgotten here all the same: a second try does not ask it again).
   */
  const disconnectWallet = useCallback(
    async (w: ConnectableWallet): Promise<boolean> => {
      const disconnect = optional(w)[StandardDisconnect]?.disconnect;
      let ok = true;
      if (disconnect) {
        leaving.current.add(w);
        try {
          await disconnect();
        } catch (error) {
          onWalletError(error);
          ok = false;
        } finally {
          leaving.current.delete(w);
        }
      }
      setConnection((c) => (c?.wallet === w ? null : c));
      if (!unloading.current) setWalletName(null);
      return ok;
    },
    [setWalletName],
  );

  const select = useCallback(
    (name: string) => {
      userSelected.current = true;
      const previous = walletRef.current;
      if (previous?.name === name) return;
      // Choosing another wallet disconnects the one chosen before (except MWA, whose disconnect
      // would wipe the phone's authorisations).
      const disconnect = previous && optional(previous)[StandardDisconnect]?.disconnect;
      if (previous && disconnect && previous.name !== MOBILE_WALLET_ADAPTER) {
        leaving.current.add(previous);
        void disconnect()
          .catch(onWalletError)
          .finally(() => leaving.current.delete(previous));
        setConnection((c) => (c?.wallet === previous ? null : c));
      }
      setWalletName(name);
    },
    [setWalletName],
  );

  // The wallet's own account changes: another account chosen in the wallet, or it disconnected.
  useEffect(() => {
    if (!connection) return;
    const { wallet: w } = connection;
    return w.features[StandardEvents].on('change', (properties) => {
      if (!('accounts' in properties) || disconnectingRef.current || leaving.current.has(w)) return;
      const first = w.accounts[0];
      if (first) setConnection((c) => (c?.wallet === w && c.account !== first ? { wallet: w, account: first } : c));
      else {
        onWalletError(new Error(`${w.name} disconnected`));
        setConnection((c) => (c?.wallet === w ? null : c));
        if (!unloading.current) setWalletName(null);
      }
    });
  }, [connection, setWalletName]);

  // After a reload (or on the next page's provider): reconnect the chosen wallet silently, with no
  // prompt, once it has registered; a wallet that declines is forgotten.
  const attempted = useRef<Wallet | null>(null);
  useEffect(() => {
    if (!wallet || userSelected.current || connection?.wallet === wallet || attempted.current === wallet) return;
    attempted.current = wallet;
    connect(wallet, true).catch((error) => {
      onWalletError(error);
      if (walletRef.current === wallet && !userSelected.current) setWalletName(null);
    });
  }, [wallet, connection, connect, setWalletName]);

  const choices = useMemo<WalletChoice[]>(
    () =>
      wallets
        .map((w) => ({
          name: w.name,
          icon: w.icon,
          url: 'url' in w && typeof w.url === 'string' ? w.url : STANDARD_URL,
          installed: true,
        }))
        // The development wallet last (real wallets are the point).
        .sort((a, b) => Number(b.installed) - Number(a.installed) || Number(a.name === DEV_WALLET_NAME) - Number(b.name === DEV_WALLET_NAME)),
    [wallets],
  );

  const connectAndSignIn = useCallback(
    async (name: string) => {
      if (busy.current) return false;
      busy.current = true;
      setConnecting(true);
      try {
        const entry = wallets.find((w) => w.name === name);
        let account: WalletAccount;
        try {
          if (!entry) throw new Error(`Wallet ${name} is not available`);
          select(name);
          account = await connect(entry);
          toast.success('Wallet connected', { description: `Connected to ${shortAddress(account.address)}` });
        } catch (error) {
          console.error('Wallet connection failed', error);
          toast.error('Connection failed', { description: 'Failed to connect wallet. Please try again.' });
          return false;
        }
        try {
          const signMessage = optional(entry)[SolanaSignMessage]?.signMessage;
          if (!signMessage || !account.features.includes(SolanaSignMessage)) throw new Error(`${name} cannot sign messages`);
          await auth.login(account.address, async (message) => (await signMessage({ account, message }))[0].signature);
          return true;
        } catch {
          // login() already told the user; leave no half-connected wallet behind.
          await disconnectWallet(entry);
          return false;
        }
      } finally {
        busy.current = false;
        setConnecting(false);
      }
    },
    [wallets, select, connect, auth, disconnectWallet],
  );

  const connectOnly = useCallback(
    async (name: string) => {
      const entry = wallets.find((w) => w.name === name);
      if (!entry) return false;
      setConnecting(true);
      try {
        select(name);
        const { address } = await connect(entry);
        if (auth.walletAddress && address !== auth.walletAddress) {
          await disconnectWallet(entry);
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
    [wallets, select, connect, auth.walletAddress, disconnectWallet],
  );

  const waitForSelectedWallet = useCallback(async (timeoutMs = 5000) => {
    const stored = localStorage.getItem(WALLET_NAME_KEY);
    if (!stored || stored === 'null') return !!walletRef.current;
    const end = Date.now() + timeoutMs;
    while (!walletRef.current && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    return !!walletRef.current;
  }, []);

  const ensureConnected = useCallback(async () => {
    const w = walletRef.current;
    if (!w) throw new Error('Connect your wallet to continue.');
    const account = await connect(w);
    if (auth.walletAddress && account.address !== auth.walletAddress) {
      throw new Error(`Switch your wallet to ${shortAddress(auth.walletAddress)}, the address you signed in with.`);
    }
    return account;
  }, [connect, auth.walletAddress]);

  const signTransaction = useCallback(
    async (transaction: Uint8Array) => {
      const account = await ensureConnected();
      const w = walletRef.current!;
      const sign = optional(w)[SolanaSignTransaction]?.signTransaction;
      if (!sign || !account.features.includes(SolanaSignTransaction)) throw new Error(`${w.name} cannot sign transactions`);
      const [output] = await sign({ account, transaction });
      return output.signedTransaction;
    },
    [ensureConnected],
  );

  const disconnectAndLogout = useCallback(
    async (leave?: () => void | Promise<void>) => {
      const w = walletRef.current;
      if (w && !disconnectingRef.current) {
        disconnectingRef.current = true;
        setDisconnecting(true);
        try {
          // A wallet that refuses: the holder stays signed in and is told; Log Out again ends the
          // session (the wallet is no longer asked).
          if (!(await disconnectWallet(w))) {
            toast.error('Disconnection failed', { description: 'Failed to disconnect wallet. Please try again.' });
            return;
          }
        } finally {
          disconnectingRef.current = false;
          setDisconnecting(false);
        }
      }
      toast.success('Wallet disconnected', { description: 'Your wallet has been disconnected.' });
      await leave?.();
      await auth.logout();
    },
    [disconnectWallet, auth],
  );

  const connected = !!connection && connection.wallet === wallet;
  const value = useMemo<WalletSessionValue>(
    () => ({
      wallets: choices,
      connecting,
      disconnecting,
      connected,
      publicKey: connected ? connection!.account.address : null,
      walletName: wallet?.name ?? null,
      connectAndSignIn,
      connectOnly,
      ensureConnected,
      waitForSelectedWallet,
      signTransaction,
      disconnectAndLogout,
    }),
    [choices, connecting, disconnecting, connected, connection, wallet, connectAndSignIn, connectOnly, ensureConnected, waitForSelectedWallet, signTransaction, disconnectAndLogout],
  );
  return <WalletSessionContext.Provider value={value}>{children}</WalletSessionContext.Provider>;
}

export function useWalletSession(): WalletSessionValue {
  const ctx = useContext(WalletSessionContext);
  if (!ctx) throw new Error('useWallet must be used within a WalletProvider');
  return ctx;
}
