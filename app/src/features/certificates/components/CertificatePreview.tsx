import { useState } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { certificateFileUrl, expiredNow, formatDate } from '../lib/format';
import { holderStatus, StatusIcon } from './status';

/** A card-style summary of the certificate, or the original PDF itself (an iframe of /files) on request. */
export function CertificatePreview({ certificate: c }: { certificate: CertificateDto }) {
  const [showPdf, setShowPdf] = useState(false);
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-2 space-y-0">
        <CardTitle>
          <h2>Preview</h2>
        </CardTitle>
        <Button variant="outline" size="sm" onClick={() => setShowPdf((v) => !v)} aria-expanded={showPdf}>
          {showPdf ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
          {showPdf ? 'Hide Original Certificate' : 'View Original Certificate'}
        </Button>
      </CardHeader>
      <CardContent>
        {showPdf ? (
          <iframe src={certificateFileUrl(c)} title={`Original certificate: ${c.title}`} className="h-[70vh] min-h-96 w-full rounded-lg border bg-muted" />
        ) : (
          <div className="rounded-lg border bg-gradient-to-br from-primary/5 to-muted p-8 text-center" data-testid="certificate-preview">
            {/* The preview's mark is the certificate's status, never a check mark it has not earned. */}
            <StatusIcon status={holderStatus(c)} className="mx-auto mb-3 size-10" />
            <p className="text-xs uppercase tracking-widest text-muted-foreground">Certificate</p>
            <p className="mt-2 text-xl font-semibold">{c.title}</p>
            <p className="mt-1 text-muted-foreground">{c.program_name}</p>
            <p className="mt-4 text-sm">{c.institution_name}</p>
            <p className="text-sm text-muted-foreground">Issued {formatDate(c.issue_date)}</p>
            {c.expires_at && (
              <p className="text-sm text-muted-foreground">
                {expiredNow(c.expires_at) ? 'Expired' : 'Expires'} {formatDate(c.expires_at)}
              </p>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
