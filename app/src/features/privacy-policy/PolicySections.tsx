import { Link } from 'react-router';
import type { PolicySection } from '../../../../shared/content/privacy-policy';
import { SUPPORT_EMAIL } from '../../../../shared/content/site';

/** The numbered sections of a policy page (privacy policy, terms of service); a 'contact-us' section ends with how to reach us. */
export function PolicySections({ sections }: { sections: PolicySection[] }) {
  return (
    <div className="mt-10 space-y-10">
      {sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
          <h2 id={`${section.id}-title`} className="text-xl font-semibold tracking-tight">
            {section.title}
          </h2>
          {section.paragraphs.map((p) => (
            <p key={p} className="mt-3 leading-7 text-muted-foreground">
              {p}
            </p>
          ))}
          {section.bullets && (
            <ul className="mt-3 list-disc space-y-2 pl-6 text-muted-foreground marker:text-primary">
              {section.bullets.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          )}
          {section.id === 'contact-us' && (
            <p className="mt-3 leading-7 text-muted-foreground">
              Write to{' '}
              <a className="font-medium text-primary underline-offset-4 hover:underline" href={`mailto:${SUPPORT_EMAIL}`}>
                {SUPPORT_EMAIL}
              </a>{' '}
              or use our{' '}
              <Link to="/contact-us" className="font-medium text-primary underline-offset-4 hover:underline">
                contact page
              </Link>
              .
            </p>
          )}
        </section>
      ))}
    </div>
  );
}
