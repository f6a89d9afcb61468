import { normaliseText } from '../documents/text';

// Whether a certificate's claimed institution is a given institution: only the institution a certificate
// names may be asked to confirm it (services/issuers/requests.ts), and the platform's issuer step says
// whether that institution can be asked (services/verification/steps.ts).

/**
 * An institution's name as compared: case, spacing, punctuation and accents aside ("&" reads "and", as
 * in the document check), apostrophes dropped ("St Mary’s" is "St Marys") and a leading article "The"
 * dropped ("The University of Leeds" is "University of Leeds"). Nothing else is dropped: "University
 * of the Arts" keeps its "the", and "Northfield College" is not "Northfield University".
 */
export function institutionKey(name: string): string {
  return normaliseText(name.replace(/['’ʼ`´]/g, '')).replace(/^the /, '');
}

/** True when both name the same institution by {@link institutionKey} (an empty name names none). */
export function sameInstitution(a: string, b: string): boolean {
  const key = institutionKey(a);
  return key !== '' && key === institutionKey(b);
}
