import { Link } from 'react-router';
import { ArrowLeft, FileText } from 'lucide-react';
import { Button } from '../../components/ui/button';

/** The public view's 'Certificate Not Found' (seed §2) or load failure: loaded only when it happens. */
export default function PublicNotFound({ missing }: { missing: boolean }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <FileText className="mb-4 size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-bold">{missing ? 'Certificate Not Found' : 'Error'}</h1>
      <p className="mb-6 mt-2 text-muted-foreground">
        {missing ? "The certificate you're looking for could not be found or does not exist." : 'Failed to load certificate details.'}
      </p>
      <Button asChild>
        <Link to="/">
          <ArrowLeft className="size-4" aria-hidden="true" /> Go to Homepage
        </Link>
      </Button>
    </div>
  );
}
