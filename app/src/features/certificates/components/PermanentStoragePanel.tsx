import { ExternalLink, HardDriveDownload } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';

/** Where the permanent copy written at mint time lives, if there is one yet. */
export function PermanentStoragePanel({ arweaveUrl }: { arweaveUrl: string | null }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Permanent Storage</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {arweaveUrl ? (
          <a href={arweaveUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-2 text-sm text-primary underline-offset-4 hover:underline">
            <HardDriveDownload className="size-4" aria-hidden="true" /> View on permanent storage
            <ExternalLink className="size-3" aria-hidden="true" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        ) : (
          <p className="text-sm text-muted-foreground">Your certificate will be stored permanently when minted as an NFT.</p>
        )}
      </CardContent>
    </Card>
  );
}
