import { useState } from 'react';
import { FlaskConical, X } from 'lucide-react';
import { APP_VERSION } from '../../../../shared/content/site';
import { Button } from '../../components/ui/button';

/** localStorage key that remembers the dismissal (seed §1). */
export const DEV_BANNER_STORAGE_KEY = 'dev-notification';

function isDismissed() {
  try {
    return localStorage.getItem(DEV_BANNER_STORAGE_KEY) === 'dismissed';
  } catch {
    return false;
  }
}

/**
 * The development notice. It floats at the bottom centre, between the feedback and chat buttons, so it
 * never covers a page's header or the signed-in sidebar.
 */
export function DevBanner() {
  const [visible, setVisible] = useState(() => !isDismissed());
  if (!visible) return null;

  function dismiss() {
    setVisible(false);
    try {
      localStorage.setItem(DEV_BANNER_STORAGE_KEY, 'dismissed');
    } catch {
      // Private mode: the notice simply comes back next visit.
    }
  }

  return (
    <div
      role="region"
      aria-label="Development notice"
      data-testid="dev-banner"
      className="animate-in-up fixed inset-x-3 bottom-20 z-40 mx-auto flex max-w-xl items-start gap-3 rounded-lg border border-warning/40 bg-amber-50 px-4 py-3 text-sm text-amber-950 shadow-lg sm:bottom-5 sm:inset-x-24 dark:bg-amber-950 dark:text-amber-50"
    >
      <FlaskConical className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
      <p className="flex-1">
        <strong className="font-semibold">Development version {APP_VERSION}.</strong> This is a demo release:
        some features may be unstable or incomplete.
      </p>
      <Button
        variant="ghost"
        size="icon-sm"
        className="-my-1 -mr-2 size-7 text-amber-900 hover:bg-amber-100 dark:text-amber-50 dark:hover:bg-amber-900"
        onClick={dismiss}
        aria-label="Dismiss development notice"
      >
        <X aria-hidden="true" />
      </Button>
    </div>
  );
}
