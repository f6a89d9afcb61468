import { lazy, Suspense } from 'react';

// Loaded after the page: the QR encoder is not needed for the verifier's first paint.
const ShareQrCode = lazy(() => import('./ShareQrCode'));

/** QR code of the public verification link, for printing or showing on a phone. */
export function ShareQr({ url, size = 160 }: { url: string; size?: number }) {
  return (
    <figure className="flex flex-col items-center gap-2">
      <div className="rounded-lg bg-white p-3" style={{ minWidth: size + 24, minHeight: size + 24 }}>
        <Suspense fallback={<div className="animate-pulse rounded bg-muted" style={{ width: size, height: size }} />}>
          <ShareQrCode url={url} size={size} />
        </Suspense>
      </div>
      <figcaption className="text-center text-xs text-muted-foreground">Scan to verify this certificate</figcaption>
    </figure>
  );
}
