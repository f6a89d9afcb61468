import { Link } from 'react-router';
import { Github, Linkedin, MessageCircle, Twitter } from 'lucide-react';
import { Separator } from '../ui/separator';
import { Logo } from './Logo';

const COLUMNS = [
  {
    title: 'Product',
    links: [
      { label: 'Verify a Certificate', to: '/verification' },
      { label: 'Connect Wallet', to: '/login' },
      { label: 'Features', to: '/#features' },
      { label: 'How It Works', to: '/#how-it-works' },
    ],
  },
  {
    title: 'Resources',
    links: [
      { label: 'Documentation', to: '/documentation' },
      { label: 'API', to: '/api' },
      { label: 'FAQ', to: '/faq' },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'About Us', to: '/about-us' },
      { label: 'Contact Us', to: '/contact-us' },
      { label: 'Privacy Policy', to: '/privacy-policy' },
    ],
  },
];

// Placeholders until the accounts exist (seed §2: "placeholder social links").
const SOCIAL = [
  { label: 'GitHub', icon: Github },
  { label: 'X (Twitter)', icon: Twitter },
  { label: 'LinkedIn', icon: Linkedin },
  { label: 'Discord', icon: MessageCircle },
];

export function SiteFooter() {
  return (
    <footer className="border-t bg-muted/30">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
        <div className="grid gap-10 md:grid-cols-[1.5fr_repeat(3,1fr)]">
          <div className="space-y-4">
            <Logo />
            <p className="max-w-xs text-sm text-muted-foreground">
              Digital certificates anyone can verify against the Solana blockchain, with soulbound NFTs and
              permanent storage.
            </p>
            <ul className="flex gap-2" aria-label="Social links">
              {SOCIAL.map(({ label, icon: Icon }) => (
                <li key={label}>
                  <a
                    href="#"
                    onClick={(e) => e.preventDefault()}
                    aria-label={`${label} (coming soon)`}
                    title={`${label} (coming soon)`}
                    className="flex size-9 items-center justify-center rounded-md border bg-background text-muted-foreground transition-colors hover:text-foreground"
                  >
                    <Icon className="size-4" aria-hidden="true" />
                  </a>
                </li>
              ))}
            </ul>
          </div>
          {COLUMNS.map((col) => (
            <nav key={col.title} aria-label={col.title}>
              <h2 className="text-sm font-semibold">{col.title}</h2>
              <ul className="mt-3 space-y-2">
                {col.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className="text-sm text-muted-foreground transition-colors hover:text-foreground">
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <Separator className="my-8" />
        <div className="flex flex-col gap-2 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          <p>© {new Date().getFullYear()} Attesta. All rights reserved.</p>
          <p>Built on Solana.</p>
        </div>
      </div>
    </footer>
  );
}
