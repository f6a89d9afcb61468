// The web app bundle must never carry a server secret. Builds the app once with fake credentials in the
// build environment (as a careless CI would have them), then scans every emitted file for each secret's
// value and for known credential shapes. VITE_-prefixed copies are deliberately NOT set: Vite exposes
// those by design; the point is that nothing else in the environment reaches the browser.
import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateOperator } from '../../server/src/services/chain/operator';

const ROOT = path.resolve(import.meta.dirname, '../..');
const rand = (n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789') =>
  Array.from(randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');

// Credential shapes, whatever their value: a leak of a real secret that the build picked up elsewhere.
const PATTERNS: [string, RegExp][] = [
  // Not `\b` after it: a token may end in `-` or `_` (a 1-in-32 miss, seen in CI).
  ['Telegram bot token', /\b\d{8,10}:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/],
  ['OpenAI-style key', /\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}/],
  ['UploadThing key', /\bsk_(?:live|test)_[A-Za-z0-9]{16,}/],
  ['PEM private key', /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/],
  ['JWK private exponent', /"d"\s*:\s*"[A-Za-z0-9_-]{40,}"/],
  ['Solana keypair (64-byte JSON array)', /\[\s*(?:\d{1,3}\s*,\s*){63}\d{1,3}\s*\]/],
  ['URL with credentials', /\b(?:smtps?|postgres(?:ql)?|redis|https?):\/\/[^\s:@/"'`]+:[^\s@/"'`]+@[^\s"'`]+/],
];

/** base64 / base64url JSON blobs (`eyJ…` = `{"`) that hold an API key or a private key. */
function base64JsonSecrets(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/eyJ[A-Za-z0-9+/_-]{16,}={0,2}/g)) {
    const decoded = Buffer.from(m[0].replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (/"(apiKey|api_key|secret|privateKey|d)"\s*:/.test(decoded)) found.push(`${m[0].slice(0, 24)}… → ${decoded.slice(0, 60)}`);
  }
  return found;
}

export function scan(text: string, secrets: Record<string, string>): string[] {
  const hits: string[] = [];
  for (const [name, value] of Object.entries(secrets)) if (value && text.includes(value)) hits.push(`secret ${name}`);
  for (const [name, re] of PATTERNS) {
    const m = text.match(re);
    if (m) hits.push(`${name}: ${m[0].slice(0, 40)}…`);
  }
  for (const b of base64JsonSecrets(text)) hits.push(`base64 JSON credential: ${b}`);
  return hits;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('app bundle carries no server secret', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-bundle-'));
  const outDir = path.join(tmp, 'dist');
  const dataDir = path.join(tmp, 'data');
  const secrets: Record<string, string> = {};
  let operatorForms: Record<string, string> = {};

  beforeAll(async () => {
    const operator = loadOrCreateOperator(path.join(dataDir, 'operator.json'));
    const operatorJson = fs.readFileSync(path.join(dataDir, 'operator.json'), 'utf8');
    operatorForms = {
      'operator keypair file': operatorJson,
      'operator secret (base58)': bs58.encode(operator.secretKey),
      'operator secret (hex)': Buffer.from(operator.secretKey.subarray(0, 32)).toString('hex'),
      'operator secret (base64)': Buffer.from(operator.secretKey).toString('base64'),
    };
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = privateKey.export({ format: 'jwk' });
    Object.assign(secrets, {
      TELEGRAM_BOT_TOKEN: `${7_000_000_000 + (randomBytes(3).readUIntBE(0, 3) % 1_000_000)}:AA${rand(33, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-')}`,
      TELEGRAM_CHAT_ID: `-100${rand(10, '0123456789')}`,
      CHAT_API_KEY: `sk-proj-${rand(48)}`,
      UPLOADTHING_TOKEN: Buffer.from(JSON.stringify({ apiKey: `sk_live_${rand(40)}`, appId: rand(10).toLowerCase(), regions: ['sea1'] })).toString('base64'),
      SMTP_URL: `smtps://mailer:${rand(24)}@smtp.example.com:465`,
      ARWEAVE_WALLET_JWK: JSON.stringify(jwk),
      ARWEAVE_WALLET_JWK_D: jwk.d!,
      DATABASE_URL: `postgres://attesta:${rand(24)}@db.internal:5432/attesta`,
      SESSION_SECRET: rand(48),
      TLS_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      OPERATOR_SECRET_KEY: operatorForms['operator secret (base58)'],
    });
    const env: NodeJS.ProcessEnv = { ...process.env, ...secrets, ATTESTA_DATA_DIR: dataDir, OPERATOR_KEYPAIR_PATH: path.join(dataDir, 'operator.json'), NODE_ENV: 'production' };
    for (const k of Object.keys(env)) if (k.startsWith('VITE_')) delete env[k];
    delete env.ARWEAVE_WALLET_JWK_D; // only a needle for the scan
    await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/vite'), ['build', 'app', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: ROOT,
      env,
      maxBuffer: 32 * 1024 * 1024,
      timeout: 240_000,
    });
  }, 300_000);

  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('the scanner catches each kind of credential (so a clean result means something)', () => {
    const all = { ...secrets, ...operatorForms };
    for (const [name, value] of Object.entries(all)) expect(scan(`var x = '${value}';`, all), name).toContain(`secret ${name}`);
    // Credentials with a recognisable shape are caught even when their value is unknown to the test.
    const shaped = ['TELEGRAM_BOT_TOKEN', 'CHAT_API_KEY', 'UPLOADTHING_TOKEN', 'SMTP_URL', 'ARWEAVE_WALLET_JWK', 'DATABASE_URL', 'TLS_PRIVATE_KEY'];
    for (const name of shaped) expect(scan(`var x = '${secrets[name]}';`, {}).length, name).toBeGreaterThan(0);
    expect(scan(`var k = ${operatorForms['operator keypair file']};`, {}).length).toBeGreaterThan(0);
    // Whatever a token's last character (random ones end in `-` or `_` one time in 32).
    for (const last of ['-', '_', 'x']) expect(scan(`var t = '7012345678:AA${'b'.repeat(32)}${last}';`, {}), last).toHaveLength(1);
    expect(scan('const a = "hello world"; fetch("/trpc/support.chat")', {})).toEqual([]);
  });

  it('no emitted file contains a secret value or a credential pattern', () => {
    const files = filesUnder(outDir);
    expect(files.some((f) => f.endsWith('index.html'))).toBe(true);
    const js = files.filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(0);
    console.info(`bundle-secrets: scanned ${files.length} files, ${(files.reduce((n, f) => n + fs.statSync(f).size, 0) / 1024).toFixed(0)} KiB`);
    // The bundle is the real app: it calls the server's support router rather than any provider.
    expect(js.some((f) => fs.readFileSync(f, 'utf8').includes('support'))).toBe(true);

    const leaks: string[] = [];
    for (const f of files) {
      const text = fs.readFileSync(f).toString('latin1');
      for (const hit of scan(text, { ...secrets, ...operatorForms })) leaks.push(`${path.relative(outDir, f)}: ${hit}`);
      // Provider hosts: the browser talks to our server only.
      for (const host of ['api.telegram.org', 'api.openai.com', 'uploadthing.com/api', 'smtp.example.com', 'db.internal']) {
        if (text.includes(host)) leaks.push(`${path.relative(outDir, f)}: provider host ${host}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});
