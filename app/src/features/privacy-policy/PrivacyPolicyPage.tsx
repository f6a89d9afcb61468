import { PRIVACY_POLICY_SECTIONS } from '../../../../shared/content/privacy-policy';
import { PRIVACY_POLICY_LAST_UPDATED } from '../../../../shared/content/site';
import { PageHeading } from '../../components/layout/PageHeading';
import { PolicySections } from './PolicySections';

export default function PrivacyPolicyPage() {
  return (
    <>
      <PageHeading title="Privacy Policy" description={`Last updated: ${PRIVACY_POLICY_LAST_UPDATED}`} />
      <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
        <p className="text-muted-foreground">
          Attesta respects your privacy. This policy explains what information we collect, how we use it and the
          choices you have.
        </p>
        <PolicySections sections={PRIVACY_POLICY_SECTIONS} />
      </article>
    </>
  );
}
