import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { Menu } from 'lucide-react';
import { Button } from '../ui/button';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from '../ui/sheet';
import { cn } from '../../lib/utils';
import { Logo } from './Logo';
import { SessionCta } from './SessionCta';

export interface HeaderLink {
  label: string;
  /** A route ("/faq") or an in-page anchor ("#features"). */
  href: string;
}

export const INFO_LINKS: HeaderLink[] = [
  { label: 'About Us', href: '/about-us' },
  { label: 'FAQ', href: '/faq' },
  { label: 'Documentation', href: '/documentation' },
  { label: 'API', href: '/api' },
  { label: 'Contact Us', href: '/contact-us' },
];

const linkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 outline-none';

function HeaderNavLink({ link, onNavigate }: { link: HeaderLink; onNavigate?: () => void }) {
  if (link.href.startsWith('#')) {
    return (
      <a href={link.href} className={linkClass} onClick={onNavigate}>
        {link.label}
      </a>
    );
  }
  return (
    <NavLink
      to={link.href}
      onClick={onNavigate}
      className={({ isActive }) => cn(linkClass, isActive && 'text-foreground')}
    >
      {link.label}
    </NavLink>
  );
}

/** Sticky public header; collapses its links into a sheet below the md breakpoint. */
export function SiteHeader({ links = INFO_LINKS }: { links?: HeaderLink[] }) {
  const [open, setOpen] = useState(false);
  return (
    <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {links.map((link) => (
            <HeaderNavLink key={link.href} link={link} />
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <Button asChild variant="ghost" size="sm">
            <Link to="/verification">Verify</Link>
          </Button>
          <SessionCta size="sm" />
        </div>
        <Sheet open={open} onOpenChange={setOpen}>
          <SheetTrigger asChild>
            <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
              <Menu aria-hidden="true" />
            </Button>
          </SheetTrigger>
          <SheetContent side="right" className="w-72">
            <SheetHeader>
              <SheetTitle>Menu</SheetTitle>
              <SheetDescription className="sr-only">Site navigation</SheetDescription>
            </SheetHeader>
            <nav aria-label="Mobile" className="flex flex-col gap-1 px-2">
              {links.map((link) => (
                <HeaderNavLink key={link.href} link={link} onNavigate={() => setOpen(false)} />
              ))}
              <NavLink to="/verification" className={linkClass} onClick={() => setOpen(false)}>
                Verify a certificate
              </NavLink>
            </nav>
            <div className="px-4">
              <SessionCta className="w-full" />
            </div>
          </SheetContent>
        </Sheet>
      </div>
    </header>
  );
}
