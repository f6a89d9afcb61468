import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import {
  ArrowRight,
  BadgeCheck,
  Building2,
  CheckCircle2,
  Clock,
  Fingerprint,
  Globe2,
  Link2,
  Lock,
  QrCode,
  ScanSearch,
  ShieldCheck,
  Sparkles,
  Upload,
  UserCheck,
  Wallet,
  Zap,
} from 'lucide-react';
import { JOURNEY_STEPS } from '../../../../shared/content/site';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { SiteFooter } from '../../components/layout/SiteFooter';
import { SiteHeader, type HeaderLink } from '../../components/layout/SiteHeader';
import { useAuth } from '../auth/AuthProvider';

const ANCHORS: HeaderLink[] = [
  { label: 'Features', href: '#features' },
  { label: 'Benefits', href: '#benefits' },
  { label: 'How It Works', href: '#how-it-works' },
];

const FEATURES = [
  {
    icon: Fingerprint,
    title: 'Blockchain Verification',
    description:
      "Each certificate's SHA-256 fingerprint is recorded on Solana by the Attesta program. Change one byte and the check fails.",
  },
  {
    icon: BadgeCheck,
    title: 'Soulbound NFTs',
    description:
      'Mint verified certificates as non-transferable Token-2022 NFTs that live in your wallet and point back to their record.',
  },
  {
    icon: Globe2,
    title: 'Permanent Storage',
    description: 'Minted certificates are kept on Arweave, a permanent decentralised storage network.',
  },
  {
    icon: ScanSearch,
    title: 'Tamper Detection',
    description:
      'The verification pipeline re-hashes the file and checks that the PDF text names the claimed title, institution and program and you. Signs of editing it finds are flagged on the verdict itself, wherever it is shown: on its own a flag does not reject the file, and a verifier reads it beside the result.',
  },
  {
    icon: QrCode,
    title: 'Share Anywhere',
    description: 'A public link and QR code for every verified certificate. Recipients need no wallet and no account.',
  },
  {
    icon: Building2,
    title: 'Trusted Issuers',
    description:
      'Approved institutions that prove their domain can confirm the certificates they issued, raising them to issuer-confirmed.',
  },
];

const BENEFITS = [
  {
    icon: UserCheck,
    title: 'For certificate holders',
    points: [
      'Own your credentials in your own wallet',
      'One link proves them, forever',
      'No passwords: sign in with a signature',
    ],
  },
  {
    icon: ShieldCheck,
    title: 'For employers and verifiers',
    points: [
      'Verify in seconds, without an account',
      'Check a link, an ID, a hash or the file itself',
      'See the issuer, status and history from the chain',
    ],
  },
  {
    icon: Building2,
    title: 'For institutions',
    points: [
      'Register as an on-chain issuer',
      'Issue, confirm and revoke certificates',
      'Fewer forgery checks to answer by e-mail',
    ],
  },
];

const HIGHLIGHTS = [
  { icon: Zap, label: 'Seconds to verify' },
  { icon: Lock, label: 'Tamper-evident' },
  { icon: Clock, label: 'Available 24/7' },
];

const STEP_ICONS = [Wallet, Upload, Sparkles, Link2];

function HeroCertificate() {
  return (
    <div className="relative mx-auto w-full max-w-md" aria-hidden="true">
      <div className="absolute -inset-6 -z-10 rounded-[2rem] bg-gradient-to-tr from-primary/25 via-violet-400/20 to-sky-300/20 blur-2xl" />
      <Card className="gap-4 py-5 shadow-xl">
        <CardHeader className="px-5">
          <div className="flex items-center justify-between">
            <span className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Certificate</span>
            <Badge className="bg-emerald-700 text-white">
              <CheckCircle2 /> Verified
            </Badge>
          </div>
          <CardTitle className="text-xl">Bachelor of Computer Science</CardTitle>
          <CardDescription>University of Example · Issued June 2024</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3 px-5 text-sm">
          <div className="rounded-md bg-muted px-3 py-2">
            <p className="text-xs text-muted-foreground">SHA-256</p>
            <p className="truncate font-mono text-xs">9f2c4e0b7a1d53e8c6f4a2b19d0e7c3a5b8f1e6d4c2a09b7e3f5d1c8a6b4e2f0</p>
          </div>
          <div className="grid grid-cols-2 gap-3">
            <div className="rounded-md border px-3 py-2">
              <p className="text-xs text-muted-foreground">Trust tier</p>
              <p className="font-medium">Issuer confirmed</p>
            </div>
            <div className="rounded-md border px-3 py-2">
              <p className="text-xs text-muted-foreground">NFT</p>
              <p className="font-medium">Soulbound · 1 of 1</p>
            </div>
          </div>
          <p className="flex items-center gap-2 text-xs text-muted-foreground">
            <ShieldCheck className="size-4 text-primary" /> Matches the on-chain record on Solana
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

export default function LandingPage() {
  const { isAuthenticated } = useAuth();
  const { hash } = useLocation();
  const startTo = isAuthenticated ? '/dashboard' : '/login';

  // Links such as /#features from other pages land on their section.
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash]);

  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader links={ANCHORS} />
      <div className="bg-primary text-primary-foreground" role="note" aria-label="Network">
        <p className="mx-auto flex max-w-7xl items-center justify-center gap-2 px-4 py-2 text-center text-sm">
          <Zap className="size-4 shrink-0" aria-hidden="true" />
          <span>
            <strong className="font-semibold">Now powered by Solana</strong> — fast, low-cost certificate records
            anyone can check on chain.
          </span>
        </p>
      </div>

      <main id="main-content" className="flex-1">
        {/* Hero */}
        <section className="relative overflow-hidden">
          <div className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,var(--color-accent),transparent_60%)]" />
          <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-2 lg:px-8">
            <div className="text-center lg:text-left">
              <Badge variant="outline" className="mb-5 gap-1.5 bg-background px-3 py-1 text-sm">
                <ShieldCheck className="text-primary" aria-hidden="true" /> Blockchain-verified credentials
              </Badge>
              <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl lg:text-6xl">
                Certificates anyone can <span className="text-primary">verify</span>, without trusting us
              </h1>
              <p className="mx-auto mt-6 max-w-xl text-lg text-pretty text-muted-foreground lg:mx-0">
                Connect your wallet, upload your certificate and mint it as a soulbound NFT. Share one link, and
                employers check it against the Solana blockchain in seconds.
              </p>
              <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
                <Button asChild size="lg">
                  <Link to={startTo}>
                    Get Started <ArrowRight aria-hidden="true" />
                  </Link>
                </Button>
                <Button asChild size="lg" variant="outline">
                  <a href="#features">Learn More</a>
                </Button>
              </div>
              <ul className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground lg:justify-start">
                {HIGHLIGHTS.map(({ icon: Icon, label }) => (
                  <li key={label} className="flex items-center gap-1.5">
                    <Icon className="size-4 text-primary" aria-hidden="true" /> {label}
                  </li>
                ))}
              </ul>
            </div>
            <HeroCertificate />
          </div>
        </section>

        {/* Features */}
        <section id="features" className="border-t bg-muted/30 py-20">
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <div className="mx-auto max-w-2xl text-center">
              <p className="text-sm font-semibold tracking-wide text-primary uppercase">Features</p>
              <h2 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Everything a credential needs</h2>
              <p className="mt-4 text-muted-foreground">
                From upload to verification, every step leaves a record you can check yourself.
              </p>
            </div>
            <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {FEATURES.map(({ icon: Icon, title, description }) => (
                <Card key={title} className="gap-3 transition-shadow hover:shadow-md">
                  <CardHeader>
                    <span className="mb-2 flex size-10 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                      <Icon className="size-5" aria-hidden="true" />
                    </span>
                    <h3 className="leading-none font-semibold">{title}</h3>
                  </CardHeader>
                  <CardContent>
                    <p className="text-sm text-muted-foreground">{description}</p>
                  </CardContent>
                </Card>
              ))}
            </div>
          </div>
        </section>

        {/* Benefits */}
        <section id="benefits" className="py-20">
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <div className="mx-auto max-w-2xl text-center">
              <p className="text-sm font-semibold tracking-wide text-primary uppercase">Benefits</p>
              <h2 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Trust that travels with you</h2>
              <p className="mt-4 text-muted-foreground">
                Holders, verifiers and institutions each get proof instead of paperwork.
              </p>
            </div>
            <div className="mt-12 grid gap-6 lg:grid-cols-3">
              {BENEFITS.map(({ icon: Icon, title, points }) => (
                <div key={title} className="rounded-xl border bg-card p-6 shadow-sm">
                  <div className="flex items-center gap-3">
                    <span className="flex size-10 items-center justify-center rounded-lg bg-primary text-primary-foreground">
                      <Icon className="size-5" aria-hidden="true" />
                    </span>
                    <h3 className="text-lg font-semibold">{title}</h3>
                  </div>
                  <ul className="mt-5 space-y-3">
                    {points.map((p) => (
                      <li key={p} className="flex gap-2 text-sm">
                        <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                        {p}
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </div>
            <p className="mt-8 text-center text-sm text-muted-foreground">
              Free plan: basic verification. Premium plan: NFT minting and permanent storage require a
              subscription.
            </p>
          </div>
        </section>

        {/* How it works */}
        <section id="how-it-works" className="border-t bg-muted/30 py-20">
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <div className="mx-auto max-w-2xl text-center">
              <p className="text-sm font-semibold tracking-wide text-primary uppercase">How It Works</p>
              <h2 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Four steps to a verifiable certificate</h2>
            </div>
            <ol className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {JOURNEY_STEPS.map((step, i) => {
                const Icon = STEP_ICONS[i] ?? CheckCircle2;
                return (
                  <li key={step.title} className="relative rounded-xl border bg-card p-6 shadow-sm">
                    <span className="absolute -top-3 left-6 rounded-full bg-primary px-2.5 py-0.5 text-xs font-semibold text-primary-foreground">
                      Step {i + 1}
                    </span>
                    <Icon className="size-8 text-primary" aria-hidden="true" />
                    <h3 className="mt-4 font-semibold">{step.title}</h3>
                    <p className="mt-2 text-sm text-muted-foreground">{step.description}</p>
                  </li>
                );
              })}
            </ol>
          </div>
        </section>

        {/* Call to action */}
        <section className="py-20">
          <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
            <div className="relative overflow-hidden rounded-2xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-xl sm:px-12">
              <div className="absolute inset-0 -z-0 bg-[radial-gradient(circle_at_top_right,rgba(255,255,255,0.18),transparent_55%)]" />
              <div className="relative">
                <h2 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
                  Ready to make your certificates verifiable?
                </h2>
                <p className="mx-auto mt-4 max-w-xl text-primary-foreground/85">
                  Connect your wallet and add your first certificate in under a minute.
                </p>
                <Button asChild size="lg" variant="secondary" className="mt-8">
                  <Link to={startTo}>
                    Start Now <ArrowRight aria-hidden="true" />
                  </Link>
                </Button>
              </div>
            </div>
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
