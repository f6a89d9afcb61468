import { Link } from 'react-router';
import { FileText, Plus } from 'lucide-react';
import { Button } from '../../../components/ui/button';

export function EmptyCertificates({ title = 'No certificates yet', showCreate = true }: { title?: string; showCreate?: boolean }) {
  return (
    <div className="flex flex-col items-center justify-center rounded-xl border border-dashed px-6 py-12 text-center">
      <FileText className="mb-3 size-10 text-muted-foreground" aria-hidden="true" />
      <h3 className="text-lg font-semibold">{title}</h3>
      {showCreate ? (
        <>
          <p className="mb-4 mt-1 max-w-sm text-sm text-muted-foreground">
            Add your first certificate: we record its fingerprint on chain and verify it.
          </p>
          <Button asChild>
            <Link to="/certificates/create">
              <Plus className="size-4" aria-hidden="true" /> Create Certificate
            </Link>
          </Button>
        </>
      ) : (
        <p className="mt-1 max-w-sm text-sm text-muted-foreground">Try another search term or status.</p>
      )}
    </div>
  );
}
