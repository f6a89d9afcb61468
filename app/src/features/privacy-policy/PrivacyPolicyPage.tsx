import { Link } from 'react-router';
import { PRIVACY_POLICY_SECTIONS } from '../../../../shared/content/privacy-policy';
import { PRIVACY_POLICY_LAST_UPDATED, SUPPORT_EMAIL } from '../../../../shared/content/site';
import { PageHeading } from '../../components/layout/PageHeading';

export default function PrivacyPolicyPage() {
  return (
    <>
      <PageHeading title="Privacy Policy" description={`Last updated: ${PRIVACY_POLICY_LAST_UPDATED}`} />
      <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
        <p className="text-muted-foreground">
          Attesta respects your privacy. This policy explains what information we collect, how we use it and the
          choices you have.
        </p>
        <div className="mt-10 space-y-10">
          {PRIVACY_POLICY_SECTIONS.map((section) => (
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
      </article>
    </>
  );
}
