// The product's version, alone in its module: the development notice on every page needs only this,
// not the rest of the site's content (./site.ts re-exports it).
export const APP_VERSION = 'v0.0.1';
