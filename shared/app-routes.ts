// The web app's routes, in one list: the app's router declares its pages with these paths, and the
// server answers a path that is none of them with 404 (the app's not-found page, with its status).
// `:name` matches one path segment.
export const APP_PATHS = {
  home: '/',
  login: '/login',
  publicView: '/view/:userId/:certificateId',
  verification: '/verification',
  explorerAddress: '/explorer/address/:address',
  explorerTx: '/explorer/tx/:signature',
  aboutUs: '/about-us',
  contactUs: '/contact-us',
  privacyPolicy: '/privacy-policy',
  termsOfService: '/terms-of-service',
  faq: '/faq',
  documentation: '/documentation',
  api: '/api',
  dashboard: '/dashboard',
  certificates: '/certificates',
  createCertificate: '/certificates/create',
  certificate: '/certificates/:id',
  profile: '/profile',
  institution: '/institution',
  operator: '/operator',
} as const;

const PATTERNS = Object.values(APP_PATHS).map(
  (p) => new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
);

/** Whether `pathname` (no query) is one of the app's pages. */
export function isAppPath(pathname: string): boolean {
  return PATTERNS.some((re) => re.test(pathname));
}
