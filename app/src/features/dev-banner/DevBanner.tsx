import { useState } from 'react';
import { FlaskConical, X } from 'lucide-react';
import { APP_VERSION } from '../../../../shared/content/version';
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
 * The development notice, between the feedback and chat buttons in the floating dock
 * (app/FloatingDock.tsx): it never lies over a page's content, header or the signed-in sidebar.
 * Where the dock is narrow it says the same in fewer words.
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
      className="mx-auto flex max-w-xl min-w-0 flex-1 items-center gap-2 rounded-md border border-warning/40 bg-amber-50 px-2.5 py-1.5 text-xs text-amber-950 @2xl:text-sm dark:bg-amber-950 dark:text-amber-50"
    >
      <FlaskConical className="size-4 shrink-0 text-amber-600" aria-hidden="true" />
      <p className="min-w-0 flex-1">
        <strong className="font-semibold">
          <span className="@2xl:hidden">{APP_VERSION} demo:</span>
          <span className="hidden @2xl:inline">Development version {APP_VERSION}.</span>
        </strong>{' '}
        <span className="@2xl:hidden">features may be unstable or incomplete.</span>
        <span className="hidden @2xl:inline">This is a demo release: some features may be unstable or incomplete.</span>
      </p>
      <Button
        variant="ghost"
        size="icon-sm"
        className="-my-1 -mr-1 size-7 shrink-0 text-amber-900 hover:bg-amber-100 dark:text-amber-50 dark:hover:bg-amber-900"
        onClick={dismiss}
        aria-label="Dismiss development notice"
      >
        <X aria-hidden="true" />
      </Button>
    </div>
  );
}
