// Our own Connect Wallet dialog (wallet-adapter-react-ui is not used: it pulls Google Fonts).
import { useState } from 'react';
import { ExternalLink, Loader2, Wallet } from 'lucide-react';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import type { DevAccountId } from './dev-accounts';
import { DevAccountButtons } from './DevAccountButtons';
import { DEV_WALLET_NAME } from './names';
import { useWalletSession } from './WalletSession';

const GET_A_WALLET = [
  { name: 'Phantom', url: 'https://phantom.com/download' },
  { name: 'Solflare', url: 'https://solflare.com/download' },
  { name: 'Backpack', url: 'https://backpack.app/downloads' },
];

export function ConnectWalletDialog({
  open,
  onOpenChange,
  onSignedIn,
  signIn = true,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSignedIn?: () => void;
  /** false: only connect (the holder is signed in and a transaction needs the wallet). */
  signIn?: boolean;
}) {
  const { wallets, connecting, connectAndSignIn, connectOnly } = useWalletSession();
  const installed = wallets.filter((w) => w.installed);
  const devWallet = installed.some((w) => w.name === DEV_WALLET_NAME);
  const [pending, setPending] = useState<DevAccountId | null>(null);

  async function connect(name: string) {
    const ok = await (signIn ? connectAndSignIn(name) : connectOnly(name));
    if (ok) {
      onOpenChange(false);
      onSignedIn?.();
    }
  }

  async function choose(name: string) {
    // Signing in with the development wallet itself: its own key, not a named account chosen before.
    // (Connecting only, for a transaction, keeps the account the session was signed in with.)
    if (signIn && name === DEV_WALLET_NAME) await (await import('./dev-wallet')).selectDevAccount(null);
    await connect(name);
  }

  /** A named account of this local installation: the development wallet signs in as it. */
  async function chooseAccount(id: DevAccountId) {
    setPending(id);
    try {
      await (await import('./dev-wallet')).selectDevAccount(id);
      await connect(DEV_WALLET_NAME);
    } finally {
      setPending(null);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !connecting && onOpenChange(next)}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Connect Wallet</DialogTitle>
          <DialogDescription>
            {signIn
              ? 'Choose a Solana wallet. You will be asked to sign a message to prove it is yours; signing is free and sends no transaction.'
              : 'Connect the wallet you signed in with to sign this transaction.'}
          </DialogDescription>
        </DialogHeader>
        {installed.length > 0 ? (
          <ul className="grid gap-2" aria-label="Available wallets">
            {installed.map((w) => (
              <li key={w.name}>
                <Button
                  type="button"
                  variant="outline"
                  className="h-auto w-full justify-start gap-3 py-3 text-left whitespace-normal"
                  disabled={connecting}
                  onClick={() => void choose(w.name)}
                >
                  <img src={w.icon} alt="" className="size-7 shrink-0 rounded-md" />
                  <span className="flex min-w-0 flex-col items-start">
                    <span className="font-medium">{connecting ? 'Connecting....' : w.name}</span>
                    {w.name === DEV_WALLET_NAME && (
                      <span className="text-xs font-normal text-muted-foreground">Local chains only · your own key, kept in this browser</span>
                    )}
                  </span>
                  {connecting && <Loader2 className="ml-auto size-4 animate-spin" aria-hidden="true" />}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <div className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            <p className="mb-3 flex items-center gap-2 font-medium text-foreground">
              <Wallet className="size-4" aria-hidden="true" /> No Solana wallet found in this browser
            </p>
            <p className="mb-2">Install one of these wallets, then reload the page:</p>
            <ul className="grid gap-1">
              {GET_A_WALLET.map((w) => (
                <li key={w.name}>
                  <a href={w.url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
                    {w.name} <ExternalLink className="size-3" aria-hidden="true" />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
        {signIn && devWallet && <DevAccountButtons disabled={connecting || pending !== null} pending={pending} onChoose={(id) => void chooseAccount(id)} />}
      </DialogContent>
    </Dialog>
  );
}
