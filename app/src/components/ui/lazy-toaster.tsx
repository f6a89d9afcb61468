import { lazy, Suspense, useEffect, useState } from 'react';
import { onToasterNeeded, toasterNeeded } from '../../lib/toast';

const Toaster = lazy(() => import('./sonner').then((m) => ({ default: m.Toaster })));

/** Mounts sonner's Toaster (see ./sonner) when the first toast is raised (see lib/toast). */
export function LazyToaster() {
  const [needed, setNeeded] = useState(toasterNeeded);
  useEffect(() => {
    if (toasterNeeded()) setNeeded(true);
    return onToasterNeeded(() => setNeeded(true));
  }, []);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
