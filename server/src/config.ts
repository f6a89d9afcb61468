import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { DatabaseTarget } from './db';

// Read and validated once at start; every error names the variable.
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? def : ['true', '1', 'yes'].includes(v)));

const envSchema = z.object({
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
  ATTESTA_INSTANCE_ID: z.string().min(1).max(200).optional(),
  ATTESTA_DEMO_DATA: bool(true),
  ATTESTA_TEST_STEP_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  ATTESTA_WORKER: bool(true),
  TRUST_PROXY: bool(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  APP_DIST_DIR: z.string().min(1).default('app/dist'),
  // How often an external chain is polled for changes others made to certificate records (services/chain-sync).
  ATTESTA_CHAIN_SYNC_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(10_000),
  // Certificate creation limits (services/certificates/limits.ts) and fair verification (verification/queue.ts).
  CERTIFICATE_RATE_LIMIT_PER_WALLET: z.coerce.number().int().min(1).default(20),
  CERTIFICATE_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  CERTIFICATE_RATE_LIMIT_WINDOW_SEC: z.coerce.number().int().min(1).default(600),
  ATTESTA_DAILY_ANCHORS_PER_WALLET: z.coerce.number().int().min(1).default(20),
  ATTESTA_VERIFICATION_JOBS_PER_HOLDER: z.coerce.number().int().min(1).default(1),
});

export type Env = z.input<typeof envSchema>;

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
  chain: { mode: 'embedded'; programPath: string; programId: string | null } | { mode: 'rpc'; rpcUrl: string; programId: string | null };
  demoData: boolean;
  testStepDelayMs: number;
  worker: boolean;
  trustProxy: boolean;
  logLevel: string;
  appDistDir: string;
  /** RPC chains: how often the program's transactions are polled to keep rows in line with the chain. */
  chainSyncIntervalMs: number;
  /** Certificates per wallet and per client address per window, anchors per wallet per 24 h, running verification jobs per holder. */
  limits: { createPerWallet: number; createPerIp: number; createWindowMs: number; dailyAnchorsPerWallet: number; verificationJobsPerHolder: number };
  env: Record<string, string | undefined>;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.ATTESTA_DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    instanceId: e.ATTESTA_INSTANCE_ID ?? `${os.hostname()}:${dataDir}`,
    database: e.DATABASE_URL ? { kind: 'postgres', url: e.DATABASE_URL } : { kind: 'sqlite', file: path.join(dataDir, 'attesta.sqlite') },
    publicOrigin: e.ATTESTA_PUBLIC_ORIGIN?.replace(/\/$/, '') ?? null,
    operatorKeypairPath: path.resolve(e.OPERATOR_KEYPAIR_PATH ?? path.join(dataDir, 'operator.json')),
    chain: e.SOLANA_RPC_URL
      ? { mode: 'rpc', rpcUrl: e.SOLANA_RPC_URL, programId: e.CERTIFICATES_PROGRAM_ID ?? null }
      : { mode: 'embedded', programPath: path.resolve(e.ATTESTA_PROGRAM_PATH), programId: e.CERTIFICATES_PROGRAM_ID ?? null },
    // Demo data is for the embedded chain only: never write demo issuers to a real cluster.
    demoData: e.ATTESTA_DEMO_DATA && !e.SOLANA_RPC_URL,
    testStepDelayMs: e.ATTESTA_TEST_STEP_DELAY_MS,
    worker: e.ATTESTA_WORKER,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    appDistDir: path.resolve(e.APP_DIST_DIR),
    chainSyncIntervalMs: e.ATTESTA_CHAIN_SYNC_INTERVAL_MS,
    limits: {
      createPerWallet: e.CERTIFICATE_RATE_LIMIT_PER_WALLET,
      createPerIp: e.CERTIFICATE_RATE_LIMIT_PER_IP,
      createWindowMs: e.CERTIFICATE_RATE_LIMIT_WINDOW_SEC * 1000,
      dailyAnchorsPerWallet: e.ATTESTA_DAILY_ANCHORS_PER_WALLET,
      verificationJobsPerHolder: e.ATTESTA_VERIFICATION_JOBS_PER_HOLDER,
    },
    env,
  };
}
