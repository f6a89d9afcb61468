import { Loader2 } from 'lucide-react';

export function FullPageLoading() {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[60vh] flex-1 items-center justify-center gap-2 text-muted-foreground">
      <Loader2 className="size-5 animate-spin" aria-hidden="true" />
      <span>Loading...</span>
    </div>
  );
}
