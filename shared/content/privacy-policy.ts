// Privacy policy (SEED-SPEC §2: eight sections; last updated April 20, 2025).

export interface PolicySection {
  id: string;
  title: string;
  paragraphs: string[];
  bullets?: string[];
}

export const PRIVACY_POLICY_SECTIONS: PolicySection[] = [
  {
    id: 'information-we-collect',
    title: '1. Information We Collect',
    paragraphs: ['We collect only what the service needs to work:'],
    bullets: [
      'Your wallet address, which identifies your account when you sign in with a signature.',
      'Profile details you choose to give: your full name, an optional e-mail address and a profile photo.',
      'The certificates you upload and their details: title, institution, program and issue date.',
      'Messages you send us through the contact form, the feedback panel or the support chat.',
      'Basic technical data such as request logs, kept to operate and secure the service.',
    ],
  },
  {
    id: 'how-we-use',
    title: '2. How We Use Your Information',
    paragraphs: ['We use your information to:'],
    bullets: [
      'Sign you in and keep your session.',
      'Store, verify and record your certificates on the Solana blockchain, and mint them as NFTs when you ask.',
      'Show your certificates to the people you share a public link with.',
      'Answer your questions and improve the product.',
    ],
  },
  {
    id: 'information-sharing',
    title: '3. Information Sharing',
    paragraphs: [
      'We do not sell your personal information. A certificate is visible to anyone who has its public link. Blockchain records are public by nature: a certificate hash, your wallet address, its status and its NFT can be read by anyone on Solana, and permanent copies of minted certificates are public on Arweave.',
      'We share data with service providers (hosting, file storage, e-mail) only as needed to run Attesta, and when the law requires it.',
    ],
  },
  {
    id: 'data-security',
    title: '4. Data Security',
    paragraphs: [
      'Data is encrypted in transit with TLS and at rest with AES-256. You sign in with a wallet signature, so we never hold a password or your private keys. Sessions use HttpOnly cookies, and credentials for our providers stay on our servers.',
    ],
  },
  {
    id: 'your-rights',
    title: '5. Your Rights',
    paragraphs: [
      'You can view and update your profile at any time, and ask us for a copy of your data or for its deletion. Records already written to the blockchain or to permanent storage cannot be erased by anyone, including us; we can remove the copies and data we hold.',
    ],
  },
  {
    id: 'cookies',
    title: '6. Cookies',
    paragraphs: [
      'We use a session cookie to keep you signed in and a cookie that remembers whether the sidebar is open. Your browser storage also remembers your wallet address and whether you dismissed the development notice. We do not use advertising or tracking cookies.',
    ],
  },
  {
    id: 'policy-changes',
    title: '7. Changes to This Policy',
    paragraphs: [
      'We may update this policy as the product evolves. When we do, we change the date at the top of this page, and we tell you about significant changes.',
    ],
  },
  {
    id: 'contact-us',
    title: '8. Contact Us',
    paragraphs: ['If you have questions about this policy or your data, please contact us.'],
  },
];
