import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { Home } from 'lucide-react';
import { Button } from '../../components/ui/button';

export default function NotFoundPage() {
  const location = useLocation();

  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);

  return (
    <main id="main-content" className="flex min-h-screen items-center justify-center bg-muted/30 px-4">
      <div className="text-center">
        <p className="text-7xl font-bold tracking-tight text-primary">404</p>
        <h1 className="mt-4 text-2xl font-semibold">Oops! Page not found</h1>
        <p className="mt-2 text-muted-foreground">The page you are looking for does not exist or has moved.</p>
        <Button asChild className="mt-8">
          <Link to="/">
            <Home aria-hidden="true" /> Return to Home
          </Link>
        </Button>
      </div>
    </main>
  );
}
