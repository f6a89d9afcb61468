import { Link } from 'react-router';
import { Building2, CalendarClock, CalendarDays, Coins, GraduationCap, Hash } from 'lucide-react';
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { expiredNow, formatDate } from '../lib/format';
import { awaitingConfirmation, holderStatus, StatusIcon } from './status';

/** A certificate in the dashboard and the list; the whole card links to its page. */
export function CertificateCard({ certificate: c }: { certificate: CertificateDto }) {
  return (
    <Card className="group relative transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md">
      <CardHeader className="flex flex-row items-start justify-between gap-3 space-y-0 pb-2">
        <CardTitle className="text-base leading-snug">
          <Link to={`/certificates/${c.id}`} className="outline-none after:absolute after:inset-0 after:content-['']">
            {c.title}
          </Link>
        </CardTitle>
        <StatusIcon status={holderStatus(c)} label={awaitingConfirmation(c.verification_details) ? 'Pending: awaiting confirmation' : undefined} />
      </CardHeader>
      <CardContent className="space-y-1.5 text-sm text-muted-foreground">
        <p className="flex items-center gap-2">
          <Building2 className="size-4 shrink-0" aria-hidden="true" />
          <span className="truncate">{c.institution_name}</span>
        </p>
        <p className="flex items-center gap-2">
          <GraduationCap className="size-4 shrink-0" aria-hidden="true" />
          <span className="truncate">{c.program_name}</span>
        </p>
        <p className="flex items-center gap-2">
          <CalendarDays className="size-4 shrink-0" aria-hidden="true" />
          <span>Issued {formatDate(c.issue_date)}</span>
        </p>
        {c.expires_at && (
          <p className="flex items-center gap-2" data-testid="card-expiry" data-expired={expiredNow(c.expires_at)}>
            <CalendarClock className="size-4 shrink-0" aria-hidden="true" />
            <span>
              {expiredNow(c.expires_at) ? 'Expired' : 'Expires'} {formatDate(c.expires_at)}
            </span>
          </p>
        )}
        <div className="flex items-center justify-between pt-1">
          <span className="flex items-center gap-1 font-mono text-xs" title={c.id}>
            <Hash className="size-3.5" aria-hidden="true" />
            <span className="sr-only">ID </span>
            {c.id.slice(0, 10)}
          </span>
          {c.nft_mint_address && (
            <span className="inline-flex items-center gap-1 rounded-full bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-800 dark:bg-violet-950 dark:text-violet-300">
              <Coins className="size-3" aria-hidden="true" /> Minted
            </span>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
