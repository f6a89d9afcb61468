import fs from 'node:fs';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';

// The demo institution's and demo holder's keys are made per installation, on first start, and kept
// in the data dir (mode 600) beside the operator key. Keys derived from a fixed string in the source
// would let anyone sign as the demo institution (an approved issuer) on any server that exposes its
// chain, and sign in as the demo holder.

export const DEMO_KEYS_FILE = 'demo-keys.json';

export interface DemoKeys {
  issuer: Keypair;
  holder: Keypair;
}

const toBytes = (v: unknown, file: string, name: string) => {
  if (!Array.isArray(v) || v.length !== 64 || !v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new Error(`${file}: "${name}" must be a JSON array of 64 bytes (a solana-keygen secret key)`);
  }
  return Uint8Array.from(v as number[]);
};

/** Reads `<dataDir>/demo-keys.json`, creating it with fresh random keys on first use. */
export function loadOrCreateDemoKeys(dataDir: string): DemoKeys {
  const file = path.join(dataDir, DEMO_KEYS_FILE);
  if (!fs.existsSync(file)) {
    const keys = { issuer: Array.from(Keypair.generate().secretKey), holder: Array.from(Keypair.generate().secretKey) };
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      // wx: a server starting concurrently on the same data dir keeps the first file written.
      fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    throw new Error(`${file} is not valid JSON; delete it to make new demo keys (and a new data dir for new demo data)`);
  }
  return { issuer: Keypair.fromSecretKey(toBytes(parsed.issuer, file, 'issuer')), holder: Keypair.fromSecretKey(toBytes(parsed.holder, file, 'holder')) };
}
