import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { AlertTriangle } from 'lucide-react';
import { Button } from '../components/ui/button';

/** Shown when rendering a route throws (seed §8: 'Unexpected Application Error!'). */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);

  return (
    <main
      id="main-content"
      className="flex min-h-screen flex-col items-center justify-center gap-4 bg-muted/30 px-4 text-center"
    >
      <AlertTriangle className="size-10 text-destructive" aria-hidden="true" />
      <h1 className="text-2xl font-semibold tracking-tight">Unexpected Application Error!</h1>
      <p className="max-w-lg font-mono text-sm break-words text-muted-foreground">{detail}</p>
      <div className="flex gap-2">
        <Button onClick={() => window.location.reload()}>Reload page</Button>
        <Button asChild variant="outline">
          <Link to="/" reloadDocument>
            Return to Home
          </Link>
        </Button>
      </div>
    </main>
  );
}
