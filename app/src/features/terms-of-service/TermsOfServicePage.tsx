import { TERMS_OF_SERVICE_LAST_UPDATED, TERMS_OF_SERVICE_SECTIONS } from '../../../../shared/content/terms-of-service';
import { PageHeading } from '../../components/layout/PageHeading';
import { PolicySections } from '../privacy-policy/PolicySections';

export default function TermsOfServicePage() {
  return (
    <>
      <PageHeading title="Terms of Service" description={`Last updated: ${TERMS_OF_SERVICE_LAST_UPDATED}`} />
      <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
        <p className="text-muted-foreground">
          These terms govern your use of Attesta: what you may do with it, what its verification results mean and
          what records on the blockchain cannot undo.
        </p>
        <PolicySections sections={TERMS_OF_SERVICE_SECTIONS} />
      </article>
    </>
  );
}
