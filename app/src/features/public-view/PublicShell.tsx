import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ShieldCheck } from 'lucide-react';
import { Button } from '../../components/ui/button';

/** Minimal chrome for verifiers: a way home, a way to verify something else. */
export function PublicShell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-muted/30">
      <header className="sticky top-0 z-20 border-b bg-background/95 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-4 px-4">
          <Link to="/" className="inline-flex items-center gap-2 font-semibold">
            <ShieldCheck className="size-5 text-primary" aria-hidden="true" /> Attesta
          </Link>
          <nav aria-label="Public" className="flex items-center gap-1">
            <Button asChild variant="ghost" size="sm">
              <Link to="/verification">Verify a certificate</Link>
            </Button>
            <Button asChild variant="outline" size="sm">
              <Link to="/">Homepage</Link>
            </Button>
          </nav>
        </div>
      </header>
      <main id="main-content" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        {children}
      </main>
      <footer className="border-t py-6 text-center text-xs text-muted-foreground">
        Checked against the Solana chain record by Attesta.
      </footer>
    </div>
  );
}
