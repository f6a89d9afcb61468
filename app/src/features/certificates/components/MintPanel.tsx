// Minting the verified certificate as a soulbound NFT: the holder's wallet signs, the server submits
// (mint/api.ts). After a reload the session survives but the wallet may not be connected: the panel
// asks for it first, then resumes the mint.
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Coins, ExternalLink, Loader2 } from 'lucide-react';
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { useMintCertificate } from '../../mint/api';
import { ConnectWalletDialog } from '../../wallet/ConnectWalletDialog';
import { useWalletSession } from '../../wallet/WalletSession';
import { explorerAddressUrl } from '../lib/format';
import { holderStatus, statusMeta } from './status';

/** What the token will say was checked, in the words of the certificate's badge (holderStatus). */
function mintable(c: CertificateDto): string {
  const status = holderStatus(c);
  if (status === 'verified') return 'Your certificate is verified.';
  if (status === 'platform_checked') return `Your certificate is checked by Attesta only, not confirmed by ${c.institution_name}; its NFT says so.`;
  if (status === 'domain_not_proven') return "Your certificate is signed with its institution's own key, but the institution's domain is not proven; its NFT says so.";
  return `Your certificate reads “${statusMeta(status).label}” on its public page; its NFT says what was checked.`;
}

export function MintPanel({ certificate: c, rpcUrl }: { certificate: CertificateDto; rpcUrl?: string | null }) {
  const wallet = useWalletSession();
  const mint = useMintCertificate(wallet.signTransaction);
  // The server knows its chain, so it builds the explorer links for the mint and its transaction.
  const mintLinks = useQuery({ ...trpc.mint.links.queryOptions({ id: c.id }), enabled: !!c.nft_mint_address });
  const status = c.verification_status;
  // Only what a verifier reads as valid: a permanent token for a certificate whose public verdict is not
  // valid (its institution suspended, claims not covered) is refused by the server too (mint/prepare.ts).
  const canMint = status === 'verified' && c.public_valid && !c.nft_mint_address;

  const [connectOpen, setConnectOpen] = useState(false);
  // Resume the mint once the freshly connected wallet has reached this render.
  const [mintAfterConnect, setMintAfterConnect] = useState(false);
  useEffect(() => {
    if (mintAfterConnect && wallet.connected) {
      setMintAfterConnect(false);
      void onMint();
    }
  });

  const minting = useRef(false);
  async function onMint() {
    if (minting.current) return;
    minting.current = true;
    try {
      if (!(await wallet.waitForSelectedWallet())) {
        setConnectOpen(true);
        return;
      }
      await mint.mutateAsync(c.id);
      toast.success('Certificate Minted', { description: 'Your certificate has been successfully minted as an NFT.' });
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      console.error('Mint failed', e);
      toast.error('Minting Failed', { description: `Failed to mint your certificate as an NFT.${reason ? ` ${reason}` : ''}` });
    } finally {
      minting.current = false;
    }
  }

  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>NFT Minting</h2>
          </CardTitle>
          <CardDescription>A soulbound (non-transferable) Token-2022 NFT in your wallet.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          {c.nft_mint_address ? (
            <>
              <p className="text-sm text-muted-foreground">Minted to your wallet. Mint address:</p>
              <a
                href={mintLinks.data?.explorer_address_url ?? explorerAddressUrl(c.nft_mint_address, rpcUrl)}
                target="_blank"
                rel="noreferrer"
                data-testid="mint-address"
                className="inline-flex items-center gap-1 break-all font-mono text-xs text-primary underline-offset-4 hover:underline"
              >
                {c.nft_mint_address} <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
              {mintLinks.data?.explorer_tx_url && (
                <a
                  href={mintLinks.data.explorer_tx_url}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
                >
                  View mint transaction <ExternalLink className="size-3" aria-hidden="true" />
                  <span className="sr-only">(opens in a new tab)</span>
                </a>
              )}
            </>
          ) : canMint ? (
            <>
              <p className="text-sm text-muted-foreground" data-testid="mint-offer">
                {mintable(c)} Mint it as an NFT: your wallet signs, Attesta pays the network fees.
              </p>
              <Button className="w-full" disabled={mint.isPending} onClick={() => void onMint()}>
                {mint.isPending ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <Coins className="size-4" aria-hidden="true" />}
                {mint.isPending ? 'Minting...' : 'Mint as NFT'}
              </Button>
            </>
          ) : status === 'revoked' || status === 'superseded' ? (
            <p className="text-sm text-muted-foreground">A {status} certificate cannot be minted.</p>
          ) : status === 'verified' ? (
            <p className="text-sm text-muted-foreground" data-testid="mint-not-valid">
              Not available: its public verdict is not valid now (see Verification Status).
            </p>
          ) : (
            <p className="text-sm text-muted-foreground">Minting becomes available once the certificate is verified.</p>
          )}
        </CardContent>
      </Card>

      <ConnectWalletDialog open={connectOpen} onOpenChange={setConnectOpen} signIn={false} onSignedIn={() => setMintAfterConnect(true)} />
    </>
  );
}
