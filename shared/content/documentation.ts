// The /documentation architecture guide (SEED-SPEC §2: a searchable guide with a contents sidebar and
// nine sections). It describes Attesta as built. Plain data: the page renders it and the server's
// support assistant answers from it.

export interface DocBlock {
  heading?: string;
  paragraphs?: string[];
  bullets?: string[];
  code?: string;
}

export interface DocSection {
  id: string;
  title: string;
  summary: string;
  blocks: DocBlock[];
}

export const DOCUMENTATION_SECTIONS: DocSection[] = [
  {
    id: 'introduction',
    title: 'Introduction',
    summary:
      'Attesta issues and verifies digital certificates whose proof lives on the Solana blockchain, so anyone can check them without trusting us.',
    blocks: [
      {
        paragraphs: [
          'A holder connects a Solana wallet and adds a certificate: a PDF, or a JPG, JPEG, PNG or WEBP image that is converted to PDF. Attesta stores the file, records its SHA-256 hash on chain through the Attesta program, runs a verification pipeline, mints verified certificates as soulbound NFTs with a permanent copy, and gives a public link and QR code.',
          'An employer opens the link, or drops the file on the Verification page, and sees the check against the chain with no wallet and no account. Institutions register on chain as issuers and can issue, confirm and revoke certificates.',
        ],
      },
      {
        heading: 'Who uses it',
        bullets: [
          'Holders: wallet sign-in; add, track, mint and share certificates; a profile with a photo.',
          'Verifiers (for example employers): anonymous; verify by link, ID, hash or file.',
          'Issuers (institutions): register on chain, then issue, confirm and revoke certificates.',
          'Operators: run the server; its key is the platform verifier and fee payer; approve issuers.',
          'Developers: run everything locally against an embedded chain, use the API and a CLI.',
        ],
      },
    ],
  },
  {
    id: 'architecture',
    title: 'System Architecture',
    summary:
      'One Node.js process serves the web app, the tRPC and REST APIs and the files; the Solana program holds the record that verification checks.',
    blocks: [
      {
        paragraphs: [
          'The repository has four parts: the on-chain program (programs/certificates), the server (server/), the web app (app/) and shared code (shared/: zod schemas, constants, content and the program client). The app talks to the server only through tRPC types; the server talks to the chain through the program client built from the IDL.',
        ],
      },
      {
        heading: 'Embedded defaults and production adapters',
        bullets: [
          'Database: SQLite in the data directory (better-sqlite3, WAL) via Kysely; PostgreSQL via Kysely when DATABASE_URL is set.',
          'Uploads: files in the data directory; UploadThing when UPLOADTHING_TOKEN is set.',
          'Permanent copy: a content-addressed store in the data directory, served read-only; Arweave when ARWEAVE_URL and a wallet file are set.',
          'Chain: LiteSVM in-process with the program loaded, its accounts persisted in the database; any Solana RPC when SOLANA_RPC_URL is set.',
          'Support assistant: answers from this documentation and the FAQ; an OpenAI-compatible endpoint when CHAT_API_URL is set.',
          'Contact, feedback and e-mail: stored in a database outbox; Telegram and SMTP when configured, with credentials on the server only.',
        ],
      },
      {
        heading: 'Scale path',
        paragraphs: [
          'Stateless servers behind a load balancer on PostgreSQL, UploadThing, Arweave and a real Solana cluster. The job queue lives in the database, so any server can pick up work.',
        ],
      },
    ],
  },
  {
    id: 'user-interface',
    title: 'User Interface',
    summary:
      'A React 19 single-page app built with Vite, Tailwind CSS and accessible Radix-based components.',
    blocks: [
      {
        paragraphs: [
          'Routes are loaded on demand, so a verifier opening a public link never downloads wallet code. Data comes from the server through tRPC with TanStack Query caching; live verification status arrives over Server-Sent Events, with 10-second polling as a fallback.',
        ],
      },
      {
        heading: 'Screens',
        bullets: [
          'Public: landing page, login, public certificate view, verification, about, contact, privacy policy, FAQ, documentation and API reference.',
          'Signed in: dashboard, certificates, create certificate, certificate details and profile, with a sidebar on desktop (Ctrl or Cmd + B toggles it) and a menu below 768 px.',
          'On every page: a support chat (bottom right) and a feedback panel (bottom left).',
        ],
      },
    ],
  },
  {
    id: 'authentication',
    title: 'Authentication',
    summary: 'Sign-in with a Solana wallet signature: no passwords, no transactions, no fees.',
    blocks: [
      {
        paragraphs: [
          'The app lists the wallets installed in the browser through the Wallet Standard (Phantom, Solflare, Backpack, and a development wallet on local chains). The server issues a one-time nonce message; the wallet signs it; the server checks the ed25519 signature against the wallet address and opens a session.',
          'The session is an HttpOnly, SameSite cookie that scripts cannot read. The REST API also accepts API keys created on the profile page.',
        ],
      },
      {
        heading: 'Roles',
        bullets: [
          'User (holder): their own certificates and profile.',
          'Issuer: an approved on-chain institution that issues, confirms and revokes.',
          'Verifier: the platform key that records verification results on chain.',
          'Admin: the registry authority that manages verifiers and approves issuers.',
        ],
      },
    ],
  },
  {
    id: 'core-services',
    title: 'Core Services',
    summary:
      'A Fastify server with tRPC routers per domain, a database-backed job queue and the verification pipeline.',
    blocks: [
      {
        paragraphs: [
          'Fastify 5 hosts the tRPC routers (auth, profile, certificate, public, support), the REST API under /api/v1 with its OpenAPI document, uploaded files under /files and the permanent copies under /permanent. Inputs are validated with zod schemas shared with the app.',
        ],
      },
      {
        heading: 'Verification pipeline',
        bullets: [
          'Create: the file is checked by its bytes (type, size, parse), images are converted to PDF, the file is stored, its SHA-256 is computed and anchored on chain as pending.',
          'hash_verification: the stored file re-hashes to the on-chain hash, and the record belongs to the holder.',
          'Document checks: the PDF parses; its text names the claimed title, institution and program and the holder (the full name on their profile, which they set before adding a certificate); tamper signals (incremental updates, edited-after-created dates, producer mismatch, embedded scripts or files) are flagged: they do not reject a file on their own, and every verdict that rests on this check carries them (the public view and the Verification page in an amber line, the REST verdict\'s flags and note, the NFT metadata minted from it).',
          'issuer_verification: if an approved institution whose domain is proven issued or confirmed this hash with its own key, the tier is issuer-confirmed; otherwise the certificate is "Checked by Attesta only", not confirmed by the institution it names (which need not be registered).',
          'The platform key records verified or rejected, with a reason, on chain. A document whose text could not be read is neither: it stays pending, with the reason, until the institution confirms it (or the holder adds a PDF whose text can be read). Each step is a verification log entry; jobs survive restarts. A holder starts runs again (Check Status, Try Again, corrected details) at a pace per wallet (VERIFICATION_RERUN_RATE_LIMIT_PER_WALLET).',
          'Confirmation requests: a holder asks only the institution the certificate names (names compared without case, spacing, punctuation, accents or a leading "The"). The request keeps a copy of the details; the institution confirms exactly those: changed details withdraw the request, and a confirmation of details that no longer hold is refused (landed anyway, it confirms the file only). The claimed institution is never replaced by the confirmer\'s name.',
          'History: a certificate\'s history lists each verification run with the outcome it reached itself, and, as entries of their own, every issue, confirmation request and withdrawal, confirmation, decline, revocation and supersede: who, when and the transaction, whether done through Attesta or followed from the chain.',
        ],
      },
      {
        heading: 'Live status',
        paragraphs: [
          'Status changes are pushed to open pages over a tRPC subscription (Server-Sent Events).',
          'The public view and the results of the Verification page read the verdict again every 10 seconds and when the tab comes back into focus, so an open page follows a revocation or a confirmation; verdicts are cached by the server until the chain changes.',
        ],
      },
    ],
  },
  {
    id: 'blockchain',
    title: 'Blockchain Integration',
    summary:
      'The certificates program: dependency-free no_std Rust with an Anchor-compatible ABI and IDL.',
    blocks: [
      {
        paragraphs: [
          'The program has zero crate dependencies and follows the Anchor ABI, so the TypeScript side uses @coral-xyz/anchor unchanged. The build is reproducible: the same source gives the same bytes, so anyone can check that the deployed program is the one its source builds. It runs on the embedded LiteSVM chain or on any Solana cluster.',
        ],
      },
      {
        heading: 'Accounts (program-derived addresses)',
        bullets: [
          'Registry ["registry"]: the admin, the set of platform verifier keys and counters.',
          'Issuer ["issuer", authority]: authority, name, domain or URI, status (pending, approved, suspended) and timestamps.',
          'Certificate ["certificate", sha256]: the holder, the issuer (the institution that issued or confirmed it, or the one the holder asked to), status (pending, verified, rejected, revoked), trust tier, reason code, expiry, timestamps, the verifier and the NFT mint. A second holder cannot anchor a hash already anchored; an institution can issue it to its rightful holder, which supersedes another wallet\'s unconfirmed claim visibly. It never issues over the record of the holder it names: a holder\'s own certificate becomes the institution\'s word only when the holder asks and the institution confirms it. Revocation keeps the record.',
        ],
      },
      {
        heading: 'Instructions',
        bullets: [
          'initialize, set_verifier: create the registry and manage platform verifiers.',
          'register_issuer, set_issuer_status: institutions apply; the admin approves or suspends.',
          'anchor_certificate: the platform records a hash for a holder and pays for it.',
          'issue_certificate: an approved issuer records a hash for a holder, already verified and issuer-confirmed; over a record of another wallet that no institution confirmed, it supersedes it; over a record that already names that holder, it is refused (RecordAlreadyNamesHolder). request_confirmation: the holder asks an approved issuer to confirm their certificate. confirm_certificate: that issuer, and only that issuer, confirms it.',
          'record_verification: a platform verifier records verified or rejected with a reason.',
          'mint_certificate: the holder signs; a Token-2022 mint with NonTransferable, MetadataPointer and TokenMetadata (holding the hash and the record address), supply fixed at 1.',
          'revoke_certificate: the issuer that issued it or was asked to confirm it, a platform verifier or the admin revokes, with a reason.',
        ],
      },
      {
        paragraphs: [
          'Every instruction emits an event, and every failure is a named error numbered from 6000.',
        ],
      },
    ],
  },
  {
    id: 'data-layer',
    title: 'Data Layer',
    summary:
      'Kysely over SQLite or PostgreSQL for the app data; the chain for the proof; Arweave for permanent copies.',
    blocks: [
      {
        bullets: [
          'Users: wallet address, full name, optional e-mail, profile photo, timestamps.',
          'Certificates: title, institution, program, issue date, file hashes, verification status and details, NFT mint address and permanent-storage URL.',
          'Verification logs: one entry per pipeline step with its status (success, pending, failed) and details.',
          'Jobs, sessions, API keys and the outbox for contact, feedback and e-mail.',
          'NFT metadata: issuer information, issuance date, certificate hash and storage location.',
        ],
      },
      {
        paragraphs: [
          'Migrations are versioned and run at start-up. The chain record is the source of truth for verification: the database only caches it and can be rebuilt from it.',
        ],
      },
    ],
  },
  {
    id: 'security-workflow',
    title: 'Security & Verification Workflow',
    summary:
      'Signatures instead of passwords, secrets only on the server, and a verdict anyone can recompute from the chain.',
    blocks: [
      {
        heading: 'Security',
        bullets: [
          'Wallet sign-in with ed25519 signatures over single-use nonces.',
          'HttpOnly session cookies; API keys are stored hashed.',
          'No secret ever reaches the browser: chat, contact and feedback go through our server, which holds the provider credentials.',
          'The operator keypair lives in the data directory with mode 600, or comes from a path in the environment.',
          'Data is protected with TLS in transit and AES-256 at rest in production deployments.',
          'Uploaded files are checked by their bytes, not their names.',
          'Uploaded files are parsed and converted in separate reader processes, each with its own memory and time limits, never by the server that answers requests; uploads refused after their check (a damaged file, a duplicate) are paced per wallet and per network (REFUSED_UPLOAD_LIMIT_PER_WALLET, REFUSED_UPLOAD_LIMIT_PER_IP).',
        ],
      },
      {
        heading: 'Verify, for anyone',
        paragraphs: [
          'The public view, the Verification page (by ID, hash or dropped file hashed in the browser), the REST API and a CLI all read the verdict from the chain record: integrity, status (verified, rejected, revoked, expired), trust tier, issuer, holder wallet, NFT and its owner, permanent copy, timestamps and transaction signatures. A mismatch shows both hashes; a file that matches a certificate that is not valid (revoked, rejected, superseded) is said to match the record, never as a pass. A lookup on the Verification page is kept in its address (?id= or ?hash=), so a reload or a shared link shows it again. A certificate confirmed by an institution the operator suspended is not valid on any of them, nor is one confirmed by another institution than the one it names; an expired one says since when. The SHA-256 of an image a holder uploaded (before it was converted to PDF) finds that certificate\'s verdict once it is verified, saying so. A pending certificate found by its hash shows its public transactions, and whether it waits for its institution\'s confirmation, never its title or holder. The holder\'s own pages (badges, the dashboard\'s counters, the list\'s filters) read each certificate as its public verdict does: "Verified" only where an approved institution whose domain is proven signed it, "Checked by Attesta only" for the platform\'s check, "Issuer domain not proven" for an institution\'s key whose domain is not proven. The CLI reads the chain alone, so it cannot see what the server keeps off chain: it says that it does not check the institution\'s domain proof, and it does not show the title, institution and program the holder entered.',
        ],
      },
      {
        heading: 'Verify with the CLI',
        code: 'npx attesta verify ./certificate.pdf',
      },
    ],
  },
  {
    id: 'deployment-monitoring',
    title: 'Deployment & Monitoring',
    summary: 'One command locally; environment variables switch each adapter for production.',
    blocks: [
      {
        heading: 'Run locally',
        code: 'npm install\nnpm start   # http://localhost:3000',
        paragraphs: [
          'The first start creates the data directory, the operator keypair and demo data (an approved demo issuer and certificates cert-1 to cert-3), so a newcomer sees a living product at once.',
        ],
      },
      {
        heading: 'Production',
        bullets: [
          'DATABASE_URL for PostgreSQL, UPLOADTHING_TOKEN for uploads, ARWEAVE_URL for permanent storage, SOLANA_RPC_URL for the chain.',
          'Run several stateless servers behind a load balancer; the job queue is in the database.',
        ],
      },
      {
        heading: 'Monitoring',
        bullets: [
          'Structured request logs from Fastify, and a health check procedure for load balancers.',
          'Each verification step is logged with its status, so a stuck certificate shows where it stopped.',
          'Program events and transaction signatures link every status change to the chain.',
        ],
      },
    ],
  },
];

function sectionText(section: DocSection): string {
  return [
    section.title,
    section.summary,
    ...section.blocks.flatMap((b) => [b.heading ?? '', ...(b.paragraphs ?? []), ...(b.bullets ?? []), b.code ?? '']),
  ]
    .join('\n')
    .toLowerCase();
}

/** Case-insensitive search over every text of a section. */
export function searchDocumentation(query: string, sections: DocSection[] = DOCUMENTATION_SECTIONS): DocSection[] {
  const q = query.trim().toLowerCase();
  if (!q) return sections;
  return sections.filter((s) => sectionText(s).includes(q));
}
