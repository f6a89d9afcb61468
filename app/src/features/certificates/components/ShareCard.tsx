import { Link } from 'react-router';
import { Share2 } from 'lucide-react';
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { copyPublicLink } from '../lib/share';
import { ShareQr } from './ShareQr';

/**
 * The public link: its QR code and a copy button only for a certificate whose public verdict is valid
 * (what the check confirms): not for a verified one a verifier reads as not valid (institution suspended…).
 */
export function ShareCard({ certificate: c, link }: { certificate: CertificateDto; link: string }) {
  const status = c.verification_status;
  const valid = status === 'verified' && c.public_valid;
  return (
    <Card data-testid="share-card">
      <CardHeader>
        <CardTitle>
          <h2>Share</h2>
        </CardTitle>
        {/* The invitation to check it (and the QR code) only for what the check confirms. */}
        <CardDescription>
          {valid
            ? 'Anyone with the link can check this certificate against the chain, without a wallet.'
            : status === 'verified'
              ? 'Its public page shows it as not valid (see Verification Status), so it is not offered for sharing.'
              : status === 'pending'
                ? 'Share it once it is verified: until then its public page shows it as pending.'
                : `Its public page shows it as ${status} and not valid.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {valid && (
          <>
            <ShareQr url={link} />
            <Button variant="outline" className="w-full" onClick={() => void copyPublicLink(link)}>
              <Share2 className="size-4" aria-hidden="true" /> Copy public link
            </Button>
          </>
        )}
        <Button asChild variant="link" className="w-full">
          <Link to={`/view/${c.user_id}/${c.id}`}>Open public view</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
