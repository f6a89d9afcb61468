import fs from 'node:fs';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';

// The demo institution's, demo holder's and development operator's keys are made per installation, on
// first start, and kept in the data dir (mode 600) beside the operator key. Keys derived from a fixed
// string in the source would let anyone sign as the demo institution (an approved issuer) on any server
// that exposes its chain, sign in as the demo holder, or reach the operator console.

export const DEMO_KEYS_FILE = 'demo-keys.json';

export interface DemoKeys {
  issuer: Keypair;
  holder: Keypair;
  /** The development wallet's "Operator" account (services/demo/accounts.ts): an operator on the embedded chain only. */
  operator: Keypair;
}

const NAMES = ['issuer', 'holder', 'operator'] as const;

const toBytes = (v: unknown, file: string, name: string) => {
  if (!Array.isArray(v) || v.length !== 64 || !v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new Error(`${file}: "${name}" must be a JSON array of 64 bytes (a solana-keygen secret key)`);
  }
  return Uint8Array.from(v as number[]);
};

const fresh = () => Array.from(Keypair.generate().secretKey);

function read(file: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    throw new Error(`${file} is not valid JSON; delete it to make new demo keys (and a new data dir for new demo data)`);
  }
}

/**
 * Reads `<dataDir>/demo-keys.json`, creating it with fresh random keys on first use. A file written by an
 * earlier release (no "operator") gets one added: written beside it and renamed over it, so the file is
 * whole at every moment.
 */
export function loadOrCreateDemoKeys(dataDir: string): DemoKeys {
  const file = path.join(dataDir, DEMO_KEYS_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      // wx: a server starting concurrently on the same data dir keeps the first file written.
      fs.writeFileSync(file, JSON.stringify(Object.fromEntries(NAMES.map((n) => [n, fresh()]))), { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  let parsed = read(file);
  if (parsed.operator === undefined) {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ ...parsed, operator: fresh() }), { mode: 0o600 });
    fs.renameSync(tmp, file);
    parsed = read(file);
  }
  const [issuer, holder, operator] = NAMES.map((n) => Keypair.fromSecretKey(toBytes(parsed[n], file, n)));
  return { issuer, holder, operator };
}
