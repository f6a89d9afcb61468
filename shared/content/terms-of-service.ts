// Terms of Service, linked from the login page ("By connecting your wallet, you agree to our Terms of
// Service and Privacy Policy", SEED-SPEC §2). The words say what the product really does: what
// "verified" means, who can confirm, and what a blockchain record cannot undo.
import type { PolicySection } from './privacy-policy';

export const TERMS_OF_SERVICE_LAST_UPDATED = 'November 27, 2026';

export const TERMS_OF_SERVICE_SECTIONS: PolicySection[] = [
  {
    id: 'acceptance',
    title: '1. Acceptance of These Terms',
    paragraphs: [
      'By connecting a wallet to Attesta or using its API, you agree to these terms and to our Privacy Policy. If you use Attesta for an institution, you confirm that you may act for it.',
    ],
  },
  {
    id: 'the-service',
    title: '2. The Service',
    paragraphs: [
      'Attesta stores certificates, records their SHA-256 fingerprints on the Solana blockchain, checks them, mints verified certificates as soulbound NFTs with a permanent copy, and lets anyone check a certificate against its on-chain record without an account.',
    ],
  },
  {
    id: 'your-wallet',
    title: '3. Your Wallet',
    paragraphs: [
      'You sign in by signing a message with your wallet. Your wallet and its keys are yours: we never hold them and cannot recover them. Anyone who controls your wallet can act as you on Attesta.',
    ],
  },
  {
    id: 'your-certificates',
    title: '4. Your Certificates',
    paragraphs: ['When you add a certificate, you confirm that:'],
    bullets: [
      'it was awarded to you, under the name on your profile, and you have not altered it;',
      'the title, institution, program and date you enter are the ones the certificate states;',
      'you may share it with the institution you ask to confirm it, and with the people you give its link to.',
    ],
  },
  {
    id: 'what-verified-means',
    title: '5. What a Verification Result Means',
    paragraphs: [
      'Every result says what was checked. "Checked by Attesta only" means that the file is intact and that its visible text names what you claimed and your name; it is not the institution\'s word. "Verified" with an institution\'s name means that the institution, approved on Attesta with a proven domain, signed the record with its own key. Attesta does not vouch for more than a result states, and a result can change when a certificate is revoked, expires or its institution is suspended.',
    ],
  },
  {
    id: 'institutions',
    title: '6. Institutions',
    paragraphs: [
      'An institution registers with its own wallet, proves that it controls its domain and is approved by an operator before it can issue or confirm certificates. It confirms a holder\'s certificate only at the holder\'s request and only a certificate that names it; its confirmation covers the details it was shown (a holder who changes them withdraws the request). It revokes only what it issued or was asked to confirm. An operator may suspend an institution and revoke certificates for fraud; every such action is kept in an audit log.',
    ],
  },
  {
    id: 'acceptable-use',
    title: '7. Acceptable Use',
    paragraphs: ['You may not:'],
    bullets: [
      'add a certificate that is forged, altered or not yours, or claim to act for an institution you do not represent;',
      'try to get around the limits on requests, uploads, verification runs and sign-ins, or to reach other holders\' data;',
      'interfere with the service, its chain or its other users.',
    ],
  },
  {
    id: 'permanent-records',
    title: '8. Records That Cannot Be Undone',
    paragraphs: [
      'Fingerprints, statuses and NFTs written to the blockchain, and permanent copies written to permanent storage, are public and cannot be erased by anyone, including us. A revoked certificate keeps its record, marked revoked with the reason.',
    ],
  },
  {
    id: 'liability',
    title: '9. Limitation of Liability',
    paragraphs: [
      'Attesta is provided as it is. To the extent the law allows, we are not liable for decisions others make on the basis of a verification result beyond what that result states, nor for the loss of access to your wallet.',
    ],
  },
  {
    id: 'terms-changes',
    title: '10. Changes to These Terms',
    paragraphs: [
      'We may update these terms as the product evolves. When we do, we change the date at the top of this page, and we tell you about significant changes.',
    ],
  },
  {
    id: 'contact-us',
    title: '11. Contact Us',
    paragraphs: ['If you have questions about these terms, please contact us.'],
  },
];
