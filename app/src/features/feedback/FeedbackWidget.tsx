import { lazy, Suspense, useState } from 'react';
import { MessageSquarePlus } from 'lucide-react';
import { Button } from '../../components/ui/button';

// The sheet (dialog, select) loads on first click, keeping every page's first load small.
const FeedbackSheet = lazy(() => import('./FeedbackSheet'));

/** Floating feedback button (bottom left) on every page. */
export function FeedbackWidget() {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);

  return (
    <>
      <Button
        variant="outline"
        className="fixed bottom-4 left-[var(--floating-left,1rem)] z-40 h-11 rounded-full px-4 shadow-lg sm:bottom-6 sm:left-[var(--floating-left,1.5rem)]"
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
        <span className="hidden sm:inline">Feedback</span>
      </Button>
      {requested && (
        <Suspense fallback={null}>
          <FeedbackSheet open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
