import { Coins, Download, Share2 } from 'lucide-react';
import type { CertificateDto } from '../../../../../shared/schemas/dto';
import { Button } from '../../../components/ui/button';
import { certificateFileUrl } from '../lib/format';
import { copyPublicLink } from '../lib/share';
import { holderStatus, StatusBadge } from './status';

/** The holder's certificate page heading: status, title, institution and program; Share and Download. */
export function CertificateHeader({ certificate: c, link }: { certificate: CertificateDto; link: string }) {
  return (
    <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
      <div className="min-w-0 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={holderStatus(c)} />
          {c.nft_mint_address && (
            <span className="inline-flex items-center gap-1 rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-semibold text-violet-800 dark:bg-violet-950 dark:text-violet-300">
              <Coins className="size-3.5" aria-hidden="true" /> Minted
            </span>
          )}
        </div>
        <h1 className="break-words text-2xl font-bold tracking-tight md:text-3xl">{c.title}</h1>
        <p className="text-muted-foreground">
          {c.institution_name} · {c.program_name}
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <Button variant="outline" onClick={() => void copyPublicLink(link)}>
          <Share2 className="size-4" aria-hidden="true" /> Share
        </Button>
        <Button asChild variant="outline">
          <a href={`${certificateFileUrl(c)}?download=1`} download={c.file_name || `${c.title}.pdf`}>
            <Download className="size-4" aria-hidden="true" /> Download
          </a>
        </Button>
      </div>
    </div>
  );
}
