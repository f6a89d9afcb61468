import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { SearchX } from 'lucide-react';
import { DOCUMENTATION_SECTIONS, searchDocumentation, type DocSection } from '../../../../shared/content/documentation';
import { PageHeading } from '../../components/layout/PageHeading';
import { SearchField } from '../../components/layout/SearchField';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';

/** Highlights the contents entry of the section being read. */
function useActiveSection(ids: string[]) {
  const [active, setActive] = useState(ids[0]);
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.filter((e) => e.isIntersecting).sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top);
        if (visible[0]) setActive(visible[0].target.id);
      },
      { rootMargin: '-80px 0px -60% 0px' },
    );
    ids.forEach((id) => {
      const el = document.getElementById(id);
      if (el) observer.observe(el);
    });
    return () => observer.disconnect();
  }, [ids]);
  return active;
}

function Section({ section, index }: { section: DocSection; index: number }) {
  return (
    <section id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-24">
      <p className="text-sm font-semibold text-primary">Section {index + 1}</p>
      <h2 id={`${section.id}-title`} className="mt-1 text-2xl font-bold tracking-tight">
        {section.title}
      </h2>
      <p className="mt-3 text-lg text-muted-foreground">{section.summary}</p>
      <div className="mt-6 space-y-6">
        {section.blocks.map((block, i) => (
          <div key={i} className="space-y-3">
            {block.heading && <h3 className="text-lg font-semibold">{block.heading}</h3>}
            {block.paragraphs?.map((p) => (
              <p key={p} className="leading-7 text-foreground/85">
                {p}
              </p>
            ))}
            {block.bullets && (
              <ul className="list-disc space-y-2 pl-6 leading-7 text-foreground/85 marker:text-primary">
                {block.bullets.map((b) => (
                  <li key={b}>{b}</li>
                ))}
              </ul>
            )}
            {block.code && (
              <pre className="overflow-x-auto rounded-lg border bg-muted px-4 py-3 font-mono text-sm">
                <code>{block.code}</code>
              </pre>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}

export default function DocumentationPage() {
  const [query, setQuery] = useState('');
  const sections = useMemo(() => searchDocumentation(query), [query]);
  const ids = useMemo(() => sections.map((s) => s.id), [sections]);
  const active = useActiveSection(ids);

  return (
    <>
      <PageHeading
        eyebrow="Documentation"
        title="Architecture Guide"
        description="How Attesta works: the on-chain program, the server, storage, the trust flow and how to run it."
      >
        <SearchField value={query} onChange={setQuery} placeholder="Search documentation..." label="Search documentation" />
      </PageHeading>

      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[15rem_1fr] lg:px-8">
        <aside className="lg:sticky lg:top-24 lg:self-start">
          <nav aria-label="Contents" className="rounded-xl border bg-card p-4 shadow-sm">
            <h2 className="px-2 text-sm font-semibold">Contents</h2>
            {sections.length === 0 ? (
              <p className="mt-2 px-2 text-sm text-muted-foreground">No matching sections</p>
            ) : (
              <ol className="mt-2 space-y-0.5">
                {sections.map((s) => (
                  <li key={s.id}>
                    <a
                      href={`#${s.id}`}
                      aria-current={active === s.id ? 'true' : undefined}
                      className={cn(
                        'block rounded-md px-2 py-1.5 text-sm text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground',
                        active === s.id && 'bg-accent font-medium text-accent-foreground',
                      )}
                    >
                      {s.title}
                    </a>
                  </li>
                ))}
              </ol>
            )}
          </nav>
        </aside>

        <div className="min-w-0">
          {sections.length === 0 ? (
            <div className="rounded-xl border border-dashed p-10 text-center" role="status">
              <SearchX className="mx-auto size-8 text-muted-foreground" aria-hidden="true" />
              <p className="mt-3 font-medium">No sections match “{query.trim()}”</p>
              <Button variant="outline" className="mt-4" onClick={() => setQuery('')}>
                Clear search
              </Button>
            </div>
          ) : (
            <div className="space-y-14">
              {sections.map((s) => (
                <Section key={s.id} section={s} index={DOCUMENTATION_SECTIONS.indexOf(s)} />
              ))}
            </div>
          )}
          <p className="mt-14 border-t pt-6 text-sm text-muted-foreground">
            Looking for endpoints? See the{' '}
            <Link to="/api" className="font-medium text-primary hover:underline">
              API reference
            </Link>
            . Questions? Read the{' '}
            <Link to="/faq" className="font-medium text-primary hover:underline">
              FAQ
            </Link>{' '}
            or{' '}
            <Link to="/contact-us" className="font-medium text-primary hover:underline">
              contact us
            </Link>
            .
          </p>
        </div>
      </div>
    </>
  );
}
