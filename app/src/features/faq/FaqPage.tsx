import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { BookOpen, Mail, SearchX } from 'lucide-react';
import { searchFaq } from '../../../../shared/content/faq';
import { PageHeading } from '../../components/layout/PageHeading';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '../../components/ui/accordion';
import { Button } from '../../components/ui/button';
import { SearchField } from '../../components/layout/SearchField';

export default function FaqPage() {
  const [query, setQuery] = useState('');
  const categories = useMemo(() => searchFaq(query), [query]);
  const searching = query.trim().length > 0;

  return (
    <>
      <PageHeading
        eyebrow="FAQ"
        title="Frequently Asked Questions"
        description="Answers about Attesta, Solana wallets, certificate NFTs and verification."
      >
        <SearchField value={query} onChange={setQuery} placeholder="Search questions..." label="Search questions" />
      </PageHeading>

      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
        {categories.length === 0 ? (
          <div className="rounded-xl border border-dashed p-10 text-center" role="status">
            <SearchX className="mx-auto size-8 text-muted-foreground" aria-hidden="true" />
            <p className="mt-3 font-medium">No questions match “{query.trim()}”</p>
            <p className="mt-1 text-sm text-muted-foreground">Try another word, or ask us directly.</p>
            <Button variant="outline" className="mt-4" onClick={() => setQuery('')}>
              Clear search
            </Button>
          </div>
        ) : (
          <div className="space-y-10">
            {categories.map((category) => (
              <section key={category.id} aria-labelledby={`faq-${category.id}`}>
                <h2 id={`faq-${category.id}`} className="text-xl font-semibold tracking-tight">
                  {category.title}
                </h2>
                {/* While searching, every match is opened so the hit is visible. */}
                <Accordion
                  key={searching ? `search-${query}` : 'browse'}
                  type="multiple"
                  defaultValue={searching ? category.entries.map((e) => e.id) : []}
                  className="mt-3 rounded-xl border bg-card px-5 shadow-sm"
                >
                  {category.entries.map((entry) => (
                    <AccordionItem key={entry.id} value={entry.id}>
                      <AccordionTrigger className="text-base">{entry.question}</AccordionTrigger>
                      <AccordionContent className="leading-7 text-muted-foreground">{entry.answer}</AccordionContent>
                    </AccordionItem>
                  ))}
                </Accordion>
              </section>
            ))}
          </div>
        )}

        <section className="mt-14 rounded-xl bg-accent/60 p-8 text-center" aria-labelledby="faq-more">
          <h2 id="faq-more" className="text-xl font-semibold">Still have questions?</h2>
          <p className="mt-2 text-muted-foreground">
            Our team is happy to help, and the documentation explains how everything works.
          </p>
          <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild>
              <Link to="/contact-us">
                <Mail aria-hidden="true" /> Contact Support
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/documentation">
                <BookOpen aria-hidden="true" /> Read the Documentation
              </Link>
            </Button>
          </div>
        </section>
      </div>
    </>
  );
}

