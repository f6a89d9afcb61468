import fs from 'node:fs';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';

/** Loads the operator keypair (solana-keygen JSON), creating it with mode 600 on first start. */
export function loadOrCreateOperator(file: string): Keypair {
  if (fs.existsSync(file)) {
    let bytes: unknown;
    try {
      bytes = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      throw new Error(`Operator keypair at ${file} is not valid JSON (OPERATOR_KEYPAIR_PATH)`);
    }
    if (!Array.isArray(bytes) || bytes.length !== 64) throw new Error(`Operator keypair at ${file} must be a JSON array of 64 bytes (OPERATOR_KEYPAIR_PATH)`);
    return Keypair.fromSecretKey(Uint8Array.from(bytes as number[]));
  }
  const kp = Keypair.generate();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // wx: never overwrite a key created concurrently.
  fs.writeFileSync(file, JSON.stringify(Array.from(kp.secretKey)), { mode: 0o600, flag: 'wx' });
  return kp;
}
