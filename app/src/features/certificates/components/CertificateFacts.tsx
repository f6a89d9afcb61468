// The facts of one certificate, as a "Certificate Information" card: one list for the holder's page
// and the public view. The holder sees every field, values in full with copy buttons, in two-column
// rows; a verifier sees who holds it (name, whether it was checked, photo) and the public facts,
// stacked for the public view's side column, with no file details (name, size, hashes and the chain
// record are the chain check's to show).
import type { ReactNode } from 'react';
import { ExternalLink } from 'lucide-react';
import type { CertificateDto, PublicCertificateDto } from '../../../../../shared/schemas/dto';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { UserAvatar } from '../../profile/UserAvatar';
import { certificateFileUrl, expiredNow, explorerAddressUrl, formatDate, formatDateTime, formatKb } from '../lib/format';
import { holderNameOf } from '../lib/holder-name';
import { CopyValue, InfoRow } from './CopyField';

export type CertificateFactsProps =
  | { view: 'holder'; certificate: CertificateDto; rpcUrl?: string | null }
  /**
   * `dateChecked`: whether the issue date is anyone's word but the holder's — true where an institution's
   * key signed the details (the issuer tier); the platform's document check never reads the date.
   */
  | { view: 'public'; certificate: PublicCertificateDto; dateChecked: boolean };

const LINK = 'inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline';

export function CertificateFacts(props: CertificateFactsProps) {
  const c = props.certificate;
  // The holder's own certificate: its private fields.
  const own = props.view === 'holder' ? props.certificate : null;
  const rpcUrl = props.view === 'holder' ? props.rpcUrl : null;
  const stacked = !own;
  // A verifier sees who holds it, and whether anyone checked that name ("Issued to" would claim an issuer said so).
  const holder = props.view === 'public' ? { ...holderNameOf(props.certificate), photo: props.certificate.holder_photo_url } : null;

  /** One fact. `stackedClass`: the value's type in the stacked list ('' for a value that brings its own); the rows type every value alike. */
  const fact = (label: string, value: ReactNode, stackedClass = 'font-medium') =>
    stacked ? (
      <div>
        <dt className="text-muted-foreground">{label}</dt>
        <dd className={stackedClass || undefined}>{value}</dd>
      </div>
    ) : (
      <InfoRow label={label}>{value}</InfoRow>
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Certificate Information</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {holder && (
          <div className="mb-4 flex items-center gap-3" data-testid="holder-name" data-checked={holder.checked}>
            <UserAvatar user={{ full_name: holder.name, profile_image_url: holder.photo }} className="size-12 text-lg" />
            <div className="min-w-0">
              <p className="text-xs text-muted-foreground">Holder</p>
              <p className="truncate font-semibold">{holder.name}</p>
              <p className="text-xs text-muted-foreground">{holder.note}</p>
            </div>
          </div>
        )}
        <dl className={stacked ? 'space-y-3 text-sm' : 'divide-y'}>
          {own && fact('Title', c.title)}
          {fact('Institution', c.institution_name)}
          {fact('Program', c.program_name)}
          {fact(
            'Issue date',
            props.view === 'public' && !props.dateChecked ? (
              <>
                {formatDate(c.issue_date)} <span className="text-xs font-normal text-muted-foreground" data-testid="issue-date-note">(entered by the holder, not checked)</span>
              </>
            ) : (
              formatDate(c.issue_date)
            ),
          )}
          {/* When its on-chain record expires, as the public view says it (a record without an expiry never does). */}
          {own?.expires_at &&
            fact(
              expiredNow(own.expires_at) ? 'Expired' : 'Expires',
              <span data-testid="certificate-expiry" data-expired={expiredNow(own.expires_at)}>
                {formatDateTime(own.expires_at)}
              </span>,
            )}
          {own && fact('Added', formatDateTime(own.created_at))}
          {fact('Certificate ID', own ? <CopyValue value={c.id} label="certificate ID" /> : c.id, 'break-all font-mono text-xs')}
          {own && (
            <>
              {fact('File', <>{own.file_name} ({formatKb(own.file_size)})</>)}
              {fact('SHA-256', <CopyValue value={own.sha256} label="SHA-256 hash" />)}
              {own.original_sha256 && fact('Original upload SHA-256', <CopyValue value={own.original_sha256} label="original upload hash" />)}
              {fact(
                'On-chain record',
                <a href={explorerAddressUrl(own.record_address, rpcUrl)} target="_blank" rel="noreferrer" className={`${LINK} break-all font-mono text-xs`}>
                  {own.record_address} <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
                  <span className="sr-only">(opens in a new tab)</span>
                </a>,
              )}
            </>
          )}
          {/* Shortened with a copy button (never broken mid-string), the whole address on hover: as on the public view. */}
          {fact('Holder wallet', <CopyValue value={c.holder_wallet} label="holder wallet" short testId="holder-wallet" />, '')}
          {own &&
            fact(
              'Certificate URL',
              <a href={certificateFileUrl(own)} target="_blank" rel="noreferrer" className={LINK}>
                Open file <ExternalLink className="size-3" aria-hidden="true" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>,
            )}
        </dl>
      </CardContent>
    </Card>
  );
}
