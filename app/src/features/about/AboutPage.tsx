import { Link } from 'react-router';
import { ArrowRight, Eye, Globe2, ShieldCheck, Users } from 'lucide-react';
import { ABOUT_STATS } from '../../../../shared/content/site';
import { PageHeading } from '../../components/layout/PageHeading';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';

const VALUES = [
  {
    icon: ShieldCheck,
    title: 'Proof over promises',
    text: 'A certificate should prove itself. We record its fingerprint on a public blockchain so nobody has to take our word for it.',
  },
  {
    icon: Users,
    title: 'Owned by the holder',
    text: 'Your achievements belong to you. Certificates live in your wallet as soulbound NFTs that cannot be sold or transferred.',
  },
  {
    icon: Eye,
    title: 'Open to every verifier',
    text: 'Employers and admissions offices check a certificate in seconds, without a wallet, an account or a phone call.',
  },
  {
    icon: Globe2,
    title: 'Built to last',
    text: 'Minted certificates are kept on permanent decentralised storage, so they outlive any single company, including ours.',
  },
];

export default function AboutPage() {
  return (
    <>
      <PageHeading
        eyebrow="About Us"
        title="Making every certificate verifiable"
        description="Attesta helps people prove what they have achieved, and helps everyone else trust it."
      />

      <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <div className="grid items-start gap-12 lg:grid-cols-2">
          <div>
            <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">Our Mission</h2>
            <div className="mt-5 space-y-4 text-muted-foreground">
              <p>
                Forged diplomas and inflated résumés cost employers time and honest graduates opportunities.
                Checking a paper certificate still means e-mails, phone calls and weeks of waiting.
              </p>
              <p>
                Our mission is to make credentials instantly verifiable and impossible to forge. Attesta records
                each certificate on the Solana blockchain, verifies it, and lets its holder mint it as a soulbound
                NFT with a permanent copy. Anyone with the link can check it against the chain in seconds.
              </p>
              <p>
                We work with individuals, employers and institutions to build a world where trust in a
                credential comes from mathematics, not paperwork.
              </p>
            </div>
          </div>
          <ul className="grid grid-cols-2 gap-4" aria-label="Attesta in numbers">
            {ABOUT_STATS.map((stat) => (
              <li key={stat.label}>
                <Card className="h-full gap-1 py-6 text-center">
                  <CardContent>
                    <p className="text-4xl font-bold tracking-tight text-primary">{stat.value}</p>
                    <p className="mt-1 text-sm font-medium text-muted-foreground">{stat.label}</p>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="border-t bg-muted/30 py-16">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 className="text-center text-2xl font-bold tracking-tight sm:text-3xl">What we believe</h2>
          <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {VALUES.map(({ icon: Icon, title, text }) => (
              <div key={title} className="rounded-xl border bg-card p-6 shadow-sm">
                <Icon className="size-6 text-primary" aria-hidden="true" />
                <h3 className="mt-4 font-semibold">{title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{text}</p>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 lg:px-8">
        <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">Join us in securing credentials</h2>
        <p className="mx-auto mt-4 max-w-xl text-muted-foreground">
          Connect your wallet and make your first certificate verifiable today.
        </p>
        <Button asChild size="lg" className="mt-8">
          <Link to="/login">
            Get Started <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </section>
    </>
  );
}
