import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link, useLocation, type Location } from 'react-router';
import { AlertTriangle } from 'lucide-react';
import { Button } from '../components/ui/button';

/** Shown when rendering a route throws (seed §8: 'Unexpected Application Error!'). */
export function RouteErrorPage({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : String(error);

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

interface BoundaryState {
  error: unknown;
  location: Location;
}

/**
 * The root route's error boundary, as a data router's `errorElement` was: a render error anywhere
 * (a page, a layout, a route chunk that failed to load) replaces the whole app with RouteErrorPage,
 * and going to another location (back, a link) renders the app again.
 */
class ErrorBoundary extends Component<{ location: Location; children: ReactNode }, BoundaryState> {
  state: BoundaryState = { error: undefined, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: { location: Location }, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location !== state.location ? { error: undefined, location: props.location } : null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('The app caught an error while rendering a route', error, info.componentStack);
  }

  render() {
    return this.state.error !== undefined ? <RouteErrorPage error={this.state.error} /> : this.props.children;
  }
}

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  return <ErrorBoundary location={location}>{children}</ErrorBoundary>;
}
