// Solana Mobile Wallet Adapter (MWA): on an Android browser with no wallet in the page, the wallet
// apps installed on the phone are reached through MWA, offered as one more wallet ('Mobile Wallet
// Adapter'). wallet-adapter-react used to add it; now it is the MWA package's own wallet-standard
// wallet, and this module (with its protocol and QR code code) loads only on such a phone.
import {
  createDefaultAuthorizationCache,
  createDefaultChainSelector,
  createDefaultWalletNotFoundHandler,
  registerMwa,
} from '@solana-mobile/wallet-standard-mobile';

/** The wallet-standard chain of an RPC endpoint, as wallet-adapter-react inferred the cluster. */
export function chainForEndpoint(endpoint: string | null | undefined): `solana:${string}` {
  if (endpoint && /devnet/i.test(endpoint)) return 'solana:devnet';
  if (endpoint && /testnet/i.test(endpoint)) return 'solana:testnet';
  return 'solana:mainnet';
}

let registered = false;
export function registerMobileWalletAdapter(endpoint: string | null | undefined) {
  if (registered) return;
  registered = true;
  registerMwa({
    appIdentity: { uri: `${window.location.protocol}//${window.location.host}` },
    authorizationCache: createDefaultAuthorizationCache(),
    chains: [chainForEndpoint(endpoint)],
    chainSelector: createDefaultChainSelector(),
    onWalletNotFound: createDefaultWalletNotFoundHandler(),
  });
}
