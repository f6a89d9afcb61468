// FAQ entries (SEED-SPEC §2: four categories, three questions each). Plain data: the /faq page renders
// it and the server's support assistant answers from it.

export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
}

export interface FaqCategory {
  id: string;
  title: string;
  entries: FaqEntry[];
}

export const FAQ_CATEGORIES: FaqCategory[] = [
  {
    id: 'general',
    title: 'General',
    entries: [
      {
        id: 'what-is-attesta',
        question: 'What is Attesta?',
        answer:
          'Attesta is a platform for issuing, storing and verifying digital certificates on the Solana blockchain. You connect your wallet, add a certificate, and Attesta records its SHA-256 fingerprint on chain, verifies it, and lets you mint it as a soulbound NFT. Anyone you share the link with can check it against the chain record, without trusting us.',
      },
      {
        id: 'how-verification-works',
        question: 'How does certificate verification work?',
        answer:
          'When you upload a certificate, the server stores the file, computes its SHA-256 hash and anchors it in the Attesta program on Solana with the status pending. A verification pipeline then re-hashes the stored file against the on-chain hash, checks the PDF (its text, as drawn on the page, must name the title, institution and program and you, by the full name on your profile; signs of tampering, such as an editing tool or a modification long after creation, are flagged: not a rejection on their own, they go with the verdict wherever it is shown — the public page, the Verification page, the REST API and the NFT\'s metadata — so a verifier weighs them). The platform key records the result (verified or rejected, with a reason) on chain; a document whose text could not be read is neither: it stays pending, with the reason, until the institution confirms it (or you add a PDF whose text can be read). That is a check by the platform, shown as "Checked by Attesta only" and never as the word of the institution: a certificate is issuer-confirmed only when an approved institution, whose domain is proven, signs its record with its own key, by issuing it to you or by confirming it when you ask. A certificate you added yourself becomes the institution\'s word only that way, at your request: no institution can issue it over to you unasked. You can ask only the institution your certificate names, and its confirmation covers the details it was shown: if you change them, the request is withdrawn and you ask again. The certificate\'s history shows every platform check with its own result and, as entries of their own, what institutions did: issues, confirmations, declines and revocations, with the transaction. Checks you start again (Check Status, Try Again, corrected details) are limited per wallet.',
      },
      {
        id: 'is-it-free',
        question: 'Is Attesta free to use?',
        answer:
          'Attesta has a free plan with basic verification. NFT minting and permanent storage belong to the premium plan, which needs a subscription. During this early version no payment is taken, and the platform pays the Solana network fees.',
      },
    ],
  },
  {
    id: 'technical',
    title: 'Technical',
    entries: [
      {
        id: 'which-blockchain',
        question: 'Which blockchain does Attesta use?',
        answer:
          "Attesta runs on Solana. Its own on-chain program, certificates, keeps a registry of issuers and one record per certificate hash: holder, issuer, status, trust tier, timestamps and the NFT mint. A hash has one live record: if someone claims a file that is yours, the institution can still issue it to you, and the earlier claim is shown as superseded, with the date and the institution that issued the file.",
      },
      {
        id: 'file-formats',
        question: 'What file formats are supported?',
        answer:
          'Certificates are PDF files. JPG, JPEG, PNG and WEBP images are converted to PDF before upload. The server checks every file by its bytes (type, size and that it parses), not by its name.',
      },
      {
        id: 'how-employers-verify',
        question: 'How can an employer verify my certificate?',
        answer:
          'Share the public link or QR code from the certificate page. Anyone can open it without a wallet or an account and see the check against the chain: integrity, status, issuer, holder wallet, NFT and permanent copy. They can also enter a certificate ID or hash, or drop the file itself, on the Verification page; a dropped file is hashed in their browser.',
      },
    ],
  },
  {
    id: 'account-wallet',
    title: 'Account & Wallet',
    entries: [
      {
        id: 'supported-wallets',
        question: 'Which wallets are supported?',
        answer:
          'Attesta supports Phantom, Solflare and Backpack, the Solana wallets that follow the Wallet Standard. Install one as a browser extension, then choose Connect Wallet.',
      },
      {
        id: 'need-sol',
        question: 'Do I need SOL to use Attesta?',
        answer:
          'No. Signing in is a signed message, not a transaction, so it costs nothing. When you mint, your wallet signs and the platform pays the network fees and rent.',
      },
      {
        id: 'lost-wallet',
        question: 'What happens if I lose access to my wallet?',
        answer:
          'Your certificates are tied to your wallet address, and certificate NFTs are soulbound: they cannot be moved to another wallet. Keep your recovery phrase safe. If you lose access, contact support: the on-chain records stay intact and verifiable by anyone.',
      },
    ],
  },
  {
    id: 'nfts-storage',
    title: 'NFTs & Storage',
    entries: [
      {
        id: 'soulbound-nft',
        question: 'What is a soulbound certificate NFT?',
        answer:
          "It is a Solana Token-2022 token with a supply of one, held in your wallet, with the NonTransferable extension so it can never be sold or sent to someone else. Its metadata holds the certificate's SHA-256 hash and the address of its on-chain record, so the NFT always points back to what it proves.",
      },
      {
        id: 'where-stored',
        question: 'Where are my certificates stored?',
        answer:
          'Uploaded files are kept in cloud storage. When you mint a certificate, the PDF and the NFT metadata are also written to Arweave, a permanent decentralised storage network, so the copy outlives any single company, including us.',
      },
      {
        id: 'revocation',
        question: 'Can a certificate be revoked?',
        answer:
          'Yes. The issuing institution, the platform verifier or the administrator can revoke a certificate, for example when it was issued in error. The on-chain record is kept with the reason for revocation, and every verification shows it as revoked.',
      },
    ],
  },
];

/** Case-insensitive search over questions and answers; categories without a match are dropped. */
export function searchFaq(query: string, categories: FaqCategory[] = FAQ_CATEGORIES): FaqCategory[] {
  const q = query.trim().toLowerCase();
  if (!q) return categories;
  return categories
    .map((c) => ({
      ...c,
      entries: c.entries.filter(
        (e) => e.question.toLowerCase().includes(q) || e.answer.toLowerCase().includes(q),
      ),
    }))
    .filter((c) => c.entries.length > 0);
}
