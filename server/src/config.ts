import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import fs from 'node:fs';
import type { DatabaseTarget } from './db';
import type { DomainProofConfig } from './services/issuers/domain-proof';
import { trustEntryProblem, type TrustProxy } from './lib/rate-limit';

// Every environment variable the server reads is parsed and validated here, once, at start; every
// error names the variable. Nothing else reads process.env: services get their part of Config
// (storage, permanent, support, limits, chainSync, faults…) from the composition root (compose.ts).

const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? def : ['true', '1', 'yes'].includes(v)));

/** A positive integer with a default; unset or empty is the default. */
const positiveInt = (name: string, def: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return def;
      const v = Number(raw);
      if (Number.isInteger(v) && v >= 1) return v;
      ctx.addIssue({ code: 'custom', message: `${name} must be a positive integer (got "${raw}")` });
      return z.NEVER;
    });

/**
 * TRUST_PROXY: unset, empty, false/no/0 → trust no X-Forwarded-For (the socket's peer is the client);
 * true/yes → one proxy hop (the peer is the proxy, the client is the last X-Forwarded-For entry); a
 * number n → n hops (a CDN in front of a load balancer is 2); otherwise a comma-separated list of the
 * proxies' addresses or CIDR ranges (also loopback, linklocal, uniquelocal): only hops from those
 * are believed, so a client that reaches this server directly cannot claim another address.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((raw, ctx): TrustProxy => {
    const v = (raw ?? '').trim();
    if (v === '' || /^(false|no|0)$/i.test(v)) return false;
    if (/^(true|yes)$/i.test(v)) return { hops: 1 };
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 10) return { hops };
      ctx.addIssue({ code: 'custom', message: `TRUST_PROXY: ${hops} proxy hops is not plausible (at most 10); give the proxies' addresses instead` });
      return z.NEVER;
    }
    const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
    const problems = entries.map(trustEntryProblem).filter((p): p is string => p !== null);
    if (problems.length === 0) return { addresses: entries };
    ctx.addIssue({ code: 'custom', message: `TRUST_PROXY must be true/false, a number of proxy hops, or proxy addresses/CIDRs separated by commas: ${problems.join('; ')}` });
    return z.NEVER;
  });

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());
const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

/** The test-only crash points (services/faults.ts): inert unless ATTESTA_FAULT names one. */
export const FAULT_POINTS = ['after-blob-put', 'before-blob-delete', 'before-commit', 'after-commit', 'mint-before-send', 'mint-after-send'] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    ATTESTA_DATA_DIR: z.string().min(1).default('./data'),
    ATTESTA_PUBLIC_ORIGIN: z.url().optional(),
    OPERATOR_KEYPAIR_PATH: z.string().min(1).optional(),
    SOLANA_RPC_URL: z.url().optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, { error: 'must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)' })
      .optional(),
    CERTIFICATES_PROGRAM_ID: z
      .string()
      .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { error: 'must be a base58 public key' })
      .optional(),
    ATTESTA_PROGRAM_PATH: z.string().min(1).default('programs/certificates/deploy/certificates.so'),
    // The embedded chain's cache of account reads (services/chain/embedded-accounts.ts), in MB.
    ATTESTA_CHAIN_READ_CACHE_MB: z.coerce.number().min(0).max(4096).default(8),
    ATTESTA_INSTANCE_ID: z.string().min(1).max(200).optional(),
    ATTESTA_DEMO_DATA: bool(true),
    ATTESTA_DEV_ACCOUNTS: bool(true),
    ATTESTA_TEST_STEP_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
    ATTESTA_WORKER: bool(true),
    // One document reader process kept started and warm (services/documents/readers.ts): ~120 MB.
    ATTESTA_DOCUMENT_READER_WARM: bool(true),
    ATTESTA_FAULT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(FAULT_POINTS).optional()),
    // Client addresses and connections (lib/rate-limit.ts, app.ts): which X-Forwarded-For hops to
    // believe, and how many connections one client address may hold open when it connects directly.
    TRUST_PROXY: trustProxy,
    CONNECTION_LIMIT_PER_IP: positiveInt('CONNECTION_LIMIT_PER_IP', 128),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
    APP_DIST_DIR: z.string().min(1).default('app/dist'),
    // How often an external chain is polled for changes others made to certificate records (services/chain-sync).
    ATTESTA_CHAIN_SYNC_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(10_000),
    // Certificate creation limits (services/certificates/limits.ts) and fair verification (verification/queue.ts).
    CERTIFICATE_RATE_LIMIT_PER_WALLET: z.coerce.number().int().min(1).default(20),
    CERTIFICATE_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
    CERTIFICATE_RATE_LIMIT_WINDOW_SEC: z.coerce.number().int().min(1).default(600),
    // Verification runs a holder starts again (Check Status, Try Again, corrected details) per wallet per
    // CERTIFICATE_RATE_LIMIT_WINDOW_SEC: each reads the document again in a child process (OCR for scans).
    VERIFICATION_RERUN_RATE_LIMIT_PER_WALLET: positiveInt('VERIFICATION_RERUN_RATE_LIMIT_PER_WALLET', 10),
    // Uploads refused after their file was read (a refused file, a duplicate) per wallet and per client
    // address per CERTIFICATE_RATE_LIMIT_WINDOW_SEC: they give the creation pace back, and each cost a parse.
    REFUSED_UPLOAD_LIMIT_PER_WALLET: positiveInt('REFUSED_UPLOAD_LIMIT_PER_WALLET', 10),
    REFUSED_UPLOAD_LIMIT_PER_IP: positiveInt('REFUSED_UPLOAD_LIMIT_PER_IP', 30),
    ATTESTA_DAILY_ANCHORS_PER_WALLET: z.coerce.number().int().min(1).default(20),
    ATTESTA_VERIFICATION_JOBS_PER_HOLDER: z.coerce.number().int().min(1).default(1),
    // Sign-in (services/auth/limits.ts) and REST (rest/) limits. 60 per 10 minutes per address is a
    // school or office behind one NAT signing in at once.
    SIGN_IN_RATE_LIMIT_PER_IP: positiveInt('SIGN_IN_RATE_LIMIT_PER_IP', 60),
    SIGN_IN_RATE_LIMIT_PER_WALLET: positiveInt('SIGN_IN_RATE_LIMIT_PER_WALLET', 10),
    SIGN_IN_RATE_LIMIT_WINDOW_SEC: positiveInt('SIGN_IN_RATE_LIMIT_WINDOW_SEC', 600),
    API_RATE_LIMIT_PER_MIN: positiveInt('API_RATE_LIMIT_PER_MIN', 60),
    // The embedded chain's JSON-RPC (json-rpc/limits.ts): what one request may be answered with, and the
    // pace per client address of the methods that read many accounts, send and simulate.
    RPC_ANSWER_LIMIT_MB: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined || raw === '') return 4;
        const v = Number(raw);
        if (Number.isFinite(v) && v >= 0.0625 && v <= 256) return v;
        ctx.addIssue({ code: 'custom', message: `RPC_ANSWER_LIMIT_MB must be a number of megabytes from 0.0625 to 256 (got "${raw}")` });
        return z.NEVER;
      }),
    RPC_SCAN_RATE_LIMIT_PER_MIN: positiveInt('RPC_SCAN_RATE_LIMIT_PER_MIN', 60),
    RPC_SEND_RATE_LIMIT_PER_MIN: positiveInt('RPC_SEND_RATE_LIMIT_PER_MIN', 120),
    RPC_SIMULATE_RATE_LIMIT_PER_MIN: positiveInt('RPC_SIMULATE_RATE_LIMIT_PER_MIN', 300),
    // Institutions (services/issuers, services/operator): who is an operator, how domains are proven,
    // and the pace of issuer and operator actions per wallet (per SIGN_IN_RATE_LIMIT_WINDOW_SEC).
    ATTESTA_OPERATOR_WALLETS: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        const list = (raw ?? '').split(',').map((w) => w.trim()).filter(Boolean);
        const bad = list.filter((w) => !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(w));
        if (!bad.length) return list;
        ctx.addIssue({ code: 'custom', message: `ATTESTA_OPERATOR_WALLETS must be base58 wallet addresses separated by commas; not one: ${bad.join(', ')}` });
        return z.NEVER;
      }),
    INSTITUTION_RATE_LIMIT_PER_WALLET: positiveInt('INSTITUTION_RATE_LIMIT_PER_WALLET', 60),
    ATTESTA_DNS_SERVERS: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        const list = (raw ?? '').split(',').map((w) => w.trim()).filter(Boolean);
        const bad = list.filter((w) => !/^[\w.:[\]-]+$/.test(w));
        if (!bad.length) return list.length ? list : null;
        ctx.addIssue({ code: 'custom', message: `ATTESTA_DNS_SERVERS must be DNS server addresses (host or host:port) separated by commas; not one: ${bad.join(', ')}` });
        return z.NEVER;
      }),
    ATTESTA_DOMAIN_PROOF_HTTPS_PORT: z.coerce.number().int().min(1).max(65535).default(443),
    ATTESTA_DOMAIN_PROOF_CA_PATH: optionalText,
    ATTESTA_DOMAIN_PROOF_ALLOW_PRIVATE: bool(false),
    ATTESTA_DOMAIN_PROOF_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    ATTESTA_DOMAIN_RECHECK_HOURS: z.coerce.number().min(0.01).max(24 * 365).default(24),
    // Uploads (services/storage): UploadThing when a token is set, else files in the data dir.
    UPLOADTHING_TOKEN: optionalText,
    UPLOADTHING_API_URL: optionalText,
    UPLOADTHING_INGEST_URL: optionalText,
    UPLOADTHING_FILE_URL_BASE: optionalText,
    // Permanent copies of minted certificates (services/permanent): Arweave, else the data dir.
    ARWEAVE_URL: optionalText,
    ARWEAVE_WALLET_PATH: optionalText,
    ARWEAVE_WALLET_JWK: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .optional()
        .transform((raw, ctx) => {
          if (raw === undefined) return undefined;
          try {
            return JSON.parse(raw) as Record<string, unknown>;
          } catch {
            ctx.addIssue({ code: 'custom', message: 'ARWEAVE_WALLET_JWK is not valid JSON: paste the whole JWK key file, or use ARWEAVE_WALLET_PATH instead.' });
            return z.NEVER;
          }
        }),
    ),
    ARWEAVE_GATEWAY_URL: optionalText,
    // Support chat, contact and feedback (services/support). Every credential stays on the server:
    // none of these names carries the VITE_ prefix the app build exposes.
    CHAT_API_URL: optionalUrl,
    CHAT_API_KEY: optionalText,
    CHAT_MODEL: optionalText,
    CHAT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    TELEGRAM_BOT_TOKEN: optionalText,
    TELEGRAM_CHAT_ID: optionalText,
    TELEGRAM_API_URL: optionalUrl,
    SMTP_URL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^smtps?:\/\//, { error: 'must be smtp://… or smtps://…' })
        .optional(),
    ),
    SMTP_FROM: optionalText,
    CONTACT_TO: optionalText,
    SUPPORT_FORWARD_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  })
  .superRefine((e, ctx) => {
    // Half a channel is a mistake worth failing loudly on, not silently storing everything.
    if (!!e.TELEGRAM_BOT_TOKEN !== !!e.TELEGRAM_CHAT_ID)
      ctx.addIssue({ code: 'custom', path: ['TELEGRAM_CHAT_ID'], message: 'TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID go together' });
    if (!!e.SMTP_URL !== !!e.CONTACT_TO) ctx.addIssue({ code: 'custom', path: ['CONTACT_TO'], message: 'SMTP_URL and CONTACT_TO go together' });
  });

export type Env = z.input<typeof envSchema>;

/** Support providers (services/support): each null when not configured. */
export interface SupportConfig {
  chat: { url: string; apiKey: string | null; model: string; timeoutMs: number } | null;
  telegram: { apiUrl: string; token: string; chatId: string } | null;
  smtp: { url: string; from: string; to: string } | null;
  forwardTimeoutMs: number;
}

/** Where uploads live (services/storage): UploadThing when a token is set, else `<dataDir>/uploads`. */
export interface StorageConfig {
  dataDir: string;
  /** The server's public origin, e.g. http://localhost:3000 (local file URLs). */
  publicBaseUrl: string;
  uploadthingToken?: string;
  uploadthingApiUrl?: string;
  uploadthingIngestUrl?: string;
  uploadthingFileUrlBase?: string;
}

/** Where permanent copies go (services/permanent): Arweave when a URL is set, else `<dataDir>/permanent`. */
export interface PermanentConfig {
  arweaveUrl?: string;
  arweaveWalletPath?: string;
  arweaveJwk?: Record<string, unknown>;
  arweaveGatewayUrl?: string;
}

export interface RpcLimits {
  answerBytes: number;
  scanPerMin: number;
  sendPerMin: number;
  simulatePerMin: number;
}

export interface SignInLimits {
  /** Nonce requests, and separately sign-in submissions, per client address per window. */
  perIp: number;
  /** Nonce requests per wallet address per client address per window. */
  perWallet: number;
  windowMs: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The embedded SQLite file in the data dir, or PostgreSQL when DATABASE_URL is set. */
  database: DatabaseTarget;
  /** This server among those sharing a database: stable across its restarts (job leases). */
  instanceId: string;
  /** Origin used in links (verification_url) when no request is at hand. */
  publicOrigin: string | null;
  operatorKeypairPath: string;
  /** Embedded: `readCacheBytes` bounds the cache of account reads (ATTESTA_CHAIN_READ_CACHE_MB). */
  chain: { mode: 'embedded'; programPath: string; programId: string | null; readCacheBytes: number } | { mode: 'rpc'; rpcUrl: string; programId: string | null };
  demoData: boolean;
  /**
   * The development wallet's named accounts (Holder, Institution, Operator; services/demo/accounts.ts):
   * embedded chain only, keys served to this machine only (http/dev-accounts.ts).
   */
  devAccounts: boolean;
  testStepDelayMs: number;
  worker: boolean;
  /** Keep one document reader process started and warmed up (the first certificate after a quiet spell is not ~0.8 s slower). */
  documentReaderWarm: boolean;
  /** Which X-Forwarded-For hops are believed (TRUST_PROXY); lib/rate-limit.ts proxyTrust turns it into the one rule every client address follows. */
  trustProxy: TrustProxy;
  logLevel: string;
  appDistDir: string;
  /** RPC chains: how often the program's transactions are polled to keep rows in line with the chain. */
  chainSync: { intervalMs: number };
  limits: {
    /** Certificates per wallet and per client address per window, anchors per wallet per 24 h, running verification jobs per holder. */
    createPerWallet: number;
    createPerIp: number;
    createWindowMs: number;
    /** Verification runs started again per wallet per `createWindowMs` (services/certificates/limits.ts reserveRerun). */
    rerunsPerWallet: number;
    /** Uploads refused after their file was read, per wallet and per client address per `createWindowMs`. */
    refusedUploadsPerWallet: number;
    refusedUploadsPerIp: number;
    dailyAnchorsPerWallet: number;
    verificationJobsPerHolder: number;
    signIn: SignInLimits;
    /** REST requests per minute per API key or token (per IP without one). */
    apiPerMin: number;
    /** TCP connections open at once per client address (IPv6: its /64) connecting directly, not through a trusted proxy. */
    connectionsPerIp: number;
  };
  /**
   * The embedded chain's JSON-RPC (`/rpc`, json-rpc/limits.ts): the most JSON one request (a batch
   * counts as one) is answered with, and calls per minute per client address of the methods that read
   * many accounts (`scanPerMin`), of sendTransaction and of simulateTransaction.
   */
  rpc: RpcLimits;
  storage: StorageConfig;
  permanent: PermanentConfig;
  support: SupportConfig;
  /** Institutions: operator wallets (an operator wallet not listed is a stranger) and domain proofs. */
  institutions: {
    operatorWallets: ReadonlySet<string>;
    /** Issuer and operator actions per wallet per `windowMs`. */
    actionsPerWallet: number;
    windowMs: number;
    domainProof: DomainProofConfig;
    /** How old a domain proof may get before the background work checks it again. */
    domainRecheckMs: number;
  };
  /** The crash point this (test) process dies at, or null: production never sets ATTESTA_FAULT. */
  faults: { point: FaultPoint | null };
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // A message that already names its variable stands alone.
    const lines = parsed.error.issues.map((i) => {
      const name = i.path.join('.');
      return `  ${i.message.startsWith(name) ? i.message : `${name}: ${i.message}`}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.ATTESTA_DATA_DIR);
  const publicOrigin = e.ATTESTA_PUBLIC_ORIGIN?.replace(/\/$/, '') ?? null;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    instanceId: e.ATTESTA_INSTANCE_ID ?? `${os.hostname()}:${dataDir}`,
    database: e.DATABASE_URL ? { kind: 'postgres', url: e.DATABASE_URL } : { kind: 'sqlite', file: path.join(dataDir, 'attesta.sqlite') },
    publicOrigin,
    operatorKeypairPath: path.resolve(e.OPERATOR_KEYPAIR_PATH ?? path.join(dataDir, 'operator.json')),
    chain: e.SOLANA_RPC_URL
      ? { mode: 'rpc', rpcUrl: e.SOLANA_RPC_URL, programId: e.CERTIFICATES_PROGRAM_ID ?? null }
      : { mode: 'embedded', programPath: path.resolve(e.ATTESTA_PROGRAM_PATH), programId: e.CERTIFICATES_PROGRAM_ID ?? null, readCacheBytes: Math.round(e.ATTESTA_CHAIN_READ_CACHE_MB * 1024 * 1024) },
    // Demo data is for the embedded chain only: never write demo issuers to a real cluster.
    demoData: e.ATTESTA_DEMO_DATA && !e.SOLANA_RPC_URL,
    // Likewise the named development accounts: on a real cluster no installation-made key is an operator.
    devAccounts: e.ATTESTA_DEV_ACCOUNTS && !e.SOLANA_RPC_URL,
    testStepDelayMs: e.ATTESTA_TEST_STEP_DELAY_MS,
    worker: e.ATTESTA_WORKER,
    documentReaderWarm: e.ATTESTA_DOCUMENT_READER_WARM,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    appDistDir: path.resolve(e.APP_DIST_DIR),
    chainSync: { intervalMs: e.ATTESTA_CHAIN_SYNC_INTERVAL_MS },
    limits: {
      createPerWallet: e.CERTIFICATE_RATE_LIMIT_PER_WALLET,
      createPerIp: e.CERTIFICATE_RATE_LIMIT_PER_IP,
      createWindowMs: e.CERTIFICATE_RATE_LIMIT_WINDOW_SEC * 1000,
      rerunsPerWallet: e.VERIFICATION_RERUN_RATE_LIMIT_PER_WALLET,
      refusedUploadsPerWallet: e.REFUSED_UPLOAD_LIMIT_PER_WALLET,
      refusedUploadsPerIp: e.REFUSED_UPLOAD_LIMIT_PER_IP,
      dailyAnchorsPerWallet: e.ATTESTA_DAILY_ANCHORS_PER_WALLET,
      verificationJobsPerHolder: e.ATTESTA_VERIFICATION_JOBS_PER_HOLDER,
      signIn: { perIp: e.SIGN_IN_RATE_LIMIT_PER_IP, perWallet: e.SIGN_IN_RATE_LIMIT_PER_WALLET, windowMs: e.SIGN_IN_RATE_LIMIT_WINDOW_SEC * 1000 },
      apiPerMin: e.API_RATE_LIMIT_PER_MIN,
      connectionsPerIp: e.CONNECTION_LIMIT_PER_IP,
    },
    rpc: {
      answerBytes: Math.round(e.RPC_ANSWER_LIMIT_MB * 1024 * 1024),
      scanPerMin: e.RPC_SCAN_RATE_LIMIT_PER_MIN,
      sendPerMin: e.RPC_SEND_RATE_LIMIT_PER_MIN,
      simulatePerMin: e.RPC_SIMULATE_RATE_LIMIT_PER_MIN,
    },
    storage: {
      dataDir,
      publicBaseUrl: publicOrigin ?? `http://localhost:${e.PORT}`,
      uploadthingToken: e.UPLOADTHING_TOKEN,
      uploadthingApiUrl: e.UPLOADTHING_API_URL,
      uploadthingIngestUrl: e.UPLOADTHING_INGEST_URL,
      uploadthingFileUrlBase: e.UPLOADTHING_FILE_URL_BASE,
    },
    permanent: {
      arweaveUrl: e.ARWEAVE_URL,
      arweaveWalletPath: e.ARWEAVE_WALLET_PATH,
      arweaveJwk: e.ARWEAVE_WALLET_JWK,
      arweaveGatewayUrl: e.ARWEAVE_GATEWAY_URL,
    },
    support: {
      chat: e.CHAT_API_URL ? { url: e.CHAT_API_URL, apiKey: e.CHAT_API_KEY ?? null, model: e.CHAT_MODEL ?? 'gpt-4o-mini', timeoutMs: e.CHAT_TIMEOUT_MS } : null,
      telegram:
        e.TELEGRAM_BOT_TOKEN && e.TELEGRAM_CHAT_ID
          ? { apiUrl: (e.TELEGRAM_API_URL ?? 'https://api.telegram.org').replace(/\/$/, ''), token: e.TELEGRAM_BOT_TOKEN, chatId: e.TELEGRAM_CHAT_ID }
          : null,
      smtp: e.SMTP_URL && e.CONTACT_TO ? { url: e.SMTP_URL, from: e.SMTP_FROM ?? 'attesta@localhost', to: e.CONTACT_TO } : null,
      forwardTimeoutMs: e.SUPPORT_FORWARD_TIMEOUT_MS,
    },
    institutions: {
      operatorWallets: new Set(e.ATTESTA_OPERATOR_WALLETS),
      actionsPerWallet: e.INSTITUTION_RATE_LIMIT_PER_WALLET,
      windowMs: e.SIGN_IN_RATE_LIMIT_WINDOW_SEC * 1000,
      domainProof: {
        dnsServers: e.ATTESTA_DNS_SERVERS,
        httpsPort: e.ATTESTA_DOMAIN_PROOF_HTTPS_PORT,
        extraCa: e.ATTESTA_DOMAIN_PROOF_CA_PATH ? readCa(e.ATTESTA_DOMAIN_PROOF_CA_PATH) : null,
        allowPrivateAddresses: e.ATTESTA_DOMAIN_PROOF_ALLOW_PRIVATE,
        timeoutMs: e.ATTESTA_DOMAIN_PROOF_TIMEOUT_MS,
      },
      domainRecheckMs: Math.round(e.ATTESTA_DOMAIN_RECHECK_HOURS * 3_600_000),
    },
    faults: { point: e.ATTESTA_FAULT ?? null },
  };
}

function readCa(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  ATTESTA_DOMAIN_PROOF_CA_PATH: cannot read ${file} (${(err as Error).message})`);
  }
}
