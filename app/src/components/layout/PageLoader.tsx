import { Loader2 } from 'lucide-react';

/** Fallback while a route's chunk loads. */
export function PageLoader() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center" role="status" aria-live="polite">
      <Loader2 className="size-6 animate-spin text-muted-foreground" aria-hidden="true" />
      <span className="sr-only">Loading...</span>
    </div>
  );
}
