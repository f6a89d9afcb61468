import { Link } from 'react-router';
import { ArrowLeft, FileText } from 'lucide-react';
import { Button } from '../../../components/ui/button';

export function CertificateNotFound({ backTo, backLabel, description }: { backTo: string; backLabel: string; description: string }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <FileText className="mb-4 size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-bold">Certificate Not Found</h1>
      <p className="mb-6 mt-2 text-muted-foreground">{description}</p>
      <Button asChild>
        <Link to={backTo}>
          <ArrowLeft className="size-4" aria-hidden="true" /> {backLabel}
        </Link>
      </Button>
    </div>
  );
}
