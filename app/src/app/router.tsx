import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { RootLayout } from './RootLayout';
import { RouteErrorPage } from './RouteErrorPage';

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

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'view/:userId/:certificateId', element: <PublicViewPage /> },
      // Open to everyone (PRODUCT.md); the page itself wraps signed-in holders in their sidebar.
      { path: 'verification', element: <VerificationPage /> },
      { path: 'explorer/address/:address', element: <ExplorerPage /> },
      { path: 'explorer/tx/:signature', element: <ExplorerPage /> },
      {
        // Information pages share the public header and footer.
        element: <SiteLayout />,
        children: [
          { path: 'about-us', element: <AboutPage /> },
          { path: 'contact-us', element: <ContactPage /> },
          { path: 'privacy-policy', element: <PrivacyPolicyPage /> },
          { path: 'faq', element: <FaqPage /> },
          { path: 'documentation', element: <DocumentationPage /> },
          { path: 'api', element: <ApiDocsPage /> },
        ],
      },
      {
        // Guarded: 'Loading...' while the session loads, then /login (replace) for visitors.
        element: <SignedInLayout />,
        children: [
          { path: 'dashboard', element: <DashboardPage /> },
          { path: 'certificates', element: <CertificatesPage /> },
          { path: 'certificates/create', element: <CreateCertificatePage /> },
          { path: 'certificates/:id', element: <CertificateDetailPage /> },
          { path: 'profile', element: <ProfilePage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
