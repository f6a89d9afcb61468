// Whose name a certificate shows a verifier, and whether anyone checked it. The name is the holder's
// Attesta profile name; only a passed platform check found it in the document's text (details
// `holder_name`). Pending, rejected, institution-issued, revoked or superseded certificates show a name
// nobody checked against the document, and say so.
import { checkedHolderName } from '../../../../../shared/schemas/details';
import type { VerificationDetailsDto } from '../../../../../shared/schemas/details';

export interface HolderName {
  name: string;
  /** True when the verification found this name in the document's text. */
  checked: boolean;
  /** "(name found in the document)" or "(name on their Attesta profile, not checked)". */
  note: string;
}

export function holderNameOf(c: { holder_name: string; verification_details: VerificationDetailsDto | null }): HolderName {
  // The name the check found (the profile's name then): shown as checked even if the profile was renamed since.
  const found = checkedHolderName(c.verification_details);
  if (found) return { name: found, checked: true, note: '(name found in the document)' };
  return { name: c.holder_name || 'Unnamed holder', checked: false, note: '(name on their Attesta profile, not checked)' };
}
