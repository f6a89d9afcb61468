import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { APP_PATHS } from '../../../shared/app-routes';
import { RootLayout } from './RootLayout';
import { RouteErrorBoundary } from './RouteErrorPage';

// Every route is its own chunk: a verifier opening /view/... never downloads the signed-in app.
const LandingPage = lazy(() => import('../features/landing/LandingPage'));
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const PublicViewPage = lazy(() => import('../features/public-view/PublicViewPage'));
const VerificationPage = lazy(() => import('../features/verification/VerificationPage'));
// The read-only explorer of a local chain: its own chunk, so the verifier routes do not carry it.
const ExplorerPage = lazy(() => import('../features/explorer/ExplorerPage'));
const SiteLayout = lazy(() => import('../components/layout/SiteLayout'));
const AboutPage = lazy(() => import('../features/about/AboutPage'));
const ContactPage = lazy(() => import('../features/contact/ContactPage'));
const PrivacyPolicyPage = lazy(() => import('../features/privacy-policy/PrivacyPolicyPage'));
const TermsOfServicePage = lazy(() => import('../features/terms-of-service/TermsOfServicePage'));
const FaqPage = lazy(() => import('../features/faq/FaqPage'));
const DocumentationPage = lazy(() => import('../features/documentation/DocumentationPage'));
const ApiDocsPage = lazy(() => import('../features/api-docs/ApiDocsPage'));
const NotFoundPage = lazy(() => import('../features/not-found/NotFoundPage'));
const SignedInLayout = lazy(() => import('../layouts/SignedInLayout'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const CertificatesPage = lazy(() => import('../features/certificates/CertificatesPage'));
const CreateCertificatePage = lazy(() => import('../features/certificates/CreateCertificatePage'));
const CertificateDetailPage = lazy(() => import('../features/certificates/CertificateDetailPage'));
const ProfilePage = lazy(() => import('../features/profile/ProfilePage'));
const InstitutionPage = lazy(() => import('../features/institutions/InstitutionPage'));
const OperatorPage = lazy(() => import('../features/operator/OperatorPage'));

/**
 * The route table. Declarative routes (BrowserRouter, main.tsx) rather than a data router: the app has
 * no loaders or actions, and the data router's machinery (navigation state, fetchers, revalidation) is
 * ~17 kB gzip in the entry every page loads. What it gave us besides: the root error page
 * (RouteErrorBoundary) and scroll restoration (app/ScrollRestoration.tsx).
 */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Routes>
        <Route element={<RootLayout />}>
          <Route index element={<LandingPage />} />
          <Route path={APP_PATHS.login} element={<LoginPage />} />
          <Route path={APP_PATHS.publicView} element={<PublicViewPage />} />
          {/* Open to everyone (PRODUCT.md); the page itself wraps signed-in holders in their sidebar. */}
          <Route path={APP_PATHS.verification} element={<VerificationPage />} />
          <Route path={APP_PATHS.explorerAddress} element={<ExplorerPage />} />
          <Route path={APP_PATHS.explorerTx} element={<ExplorerPage />} />
          {/* Information pages share the public header and footer. */}
          <Route element={<SiteLayout />}>
            <Route path={APP_PATHS.aboutUs} element={<AboutPage />} />
            <Route path={APP_PATHS.contactUs} element={<ContactPage />} />
            <Route path={APP_PATHS.privacyPolicy} element={<PrivacyPolicyPage />} />
            <Route path={APP_PATHS.termsOfService} element={<TermsOfServicePage />} />
            <Route path={APP_PATHS.faq} element={<FaqPage />} />
            <Route path={APP_PATHS.documentation} element={<DocumentationPage />} />
            <Route path={APP_PATHS.api} element={<ApiDocsPage />} />
          </Route>
          {/* Guarded: 'Loading...' while the session loads, then /login (replace) for visitors. */}
          <Route element={<SignedInLayout />}>
            <Route path={APP_PATHS.dashboard} element={<DashboardPage />} />
            <Route path={APP_PATHS.certificates} element={<CertificatesPage />} />
            <Route path={APP_PATHS.createCertificate} element={<CreateCertificatePage />} />
            <Route path={APP_PATHS.certificate} element={<CertificateDetailPage />} />
            <Route path={APP_PATHS.profile} element={<ProfilePage />} />
            <Route path={APP_PATHS.institution} element={<InstitutionPage />} />
            <Route path={APP_PATHS.operator} element={<OperatorPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </RouteErrorBoundary>
  );
}
