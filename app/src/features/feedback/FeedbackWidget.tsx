import { lazy, Suspense, useState } from 'react';
import { MessageSquarePlus } from 'lucide-react';
import { Button } from '../../components/ui/button';

// The sheet (dialog, select) loads on first click, keeping every page's first load small.
const FeedbackSheet = lazy(() => import('./FeedbackSheet'));

/** The feedback button (bottom left of the floating dock, app/FloatingDock.tsx) on every page. */
export function FeedbackWidget() {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);

  return (
    <>
      <Button
        variant="outline"
        className="h-11 min-w-11 shrink-0 rounded-full px-3 shadow-sm @xl:px-4"
        aria-label="Send feedback"
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="feedback-launcher"
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        <MessageSquarePlus aria-hidden="true" />
        <span className="hidden @xl:inline">Feedback</span>
      </Button>
      {requested && (
        <Suspense fallback={null}>
          <FeedbackSheet open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
