import { Link } from 'react-router';
import { ShieldCheck } from 'lucide-react';
import { cn } from '../../lib/utils';

export function Logo({ className }: { className?: string }) {
  return (
    <Link
      to="/"
      className={cn('inline-flex items-center gap-2 rounded-md font-semibold tracking-tight', className)}
      aria-label="Attesta home"
    >
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm">
        <ShieldCheck className="size-5" aria-hidden="true" />
      </span>
      <span className="text-lg">Attesta</span>
    </Link>
  );
}
