import { ExitCode, UsageError, verifyCertificate, type Verdict } from './verify';

export const DEFAULT_RPC = 'http://localhost:3000/rpc';

const HELP = `attesta — verify Attesta certificates against the Solana chain (no Attesta server needed)

Usage:
  attesta verify <file|sha256> [--rpc URL] [--program ID] [--json]
  attesta --help | --version

Arguments:
  <file|sha256>   a certificate file (its SHA-256 is computed) or a 64-character hex SHA-256

Options:
  --rpc URL       Solana JSON-RPC endpoint (default ${DEFAULT_RPC}, or $ATTESTA_RPC_URL)
  --program ID    certificates program id (default: the Attesta program, or $ATTESTA_PROGRAM_ID)
  --json          print a machine-readable verdict (JSON) instead of text
  -h, --help      show this help

Exit codes:
  0  valid: verified, not revoked, not expired (issuer-confirmed: the institution is approved on chain;
     its domain proof is kept off chain and is not checked here, which the output says)
  1  not valid: pending, rejected, revoked, expired, or confirmed by an institution that is not
     approved (the reason is printed)
  2  not found: no record on chain for this hash (never registered, or the file was altered)
  3  usage or network error
`;

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  env: Record<string, string | undefined>;
}

const defaultIo: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), env: process.env };

function parse(argv: string[]) {
  const opts: { rpc?: string; program?: string; json: boolean; help: boolean; version: boolean } = { json: false, help: false, version: false };
  const pos: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (name: string) => {
      const eq = a.indexOf('=');
      if (eq > 0) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value.`);
      return v;
    };
    if (a === '-h' || a === '--help') opts.help = true;
    else if (a === '-V' || a === '--version') opts.version = true;
    else if (a === '--json') opts.json = true;
    else if (a === '--rpc' || a.startsWith('--rpc=')) opts.rpc = value('--rpc');
    else if (a === '--program' || a.startsWith('--program=')) opts.program = value('--program');
    else if (a.startsWith('-') && a !== '-') throw new UsageError(`Unknown option ${a}.`);
    else pos.push(a);
  }
  return { opts, pos };
}

const MARK: Record<string, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', info: 'INFO' };

function render(v: Verdict): string {
  const lines = [
    'Attesta certificate verification',
    `  SHA-256  ${v.sha256}${v.input.kind === 'file' ? `  (file ${v.input.path}, ${v.input.bytes} bytes)` : ''}`,
    `  Record   ${v.record}`,
    `  Program  ${v.programId}`,
    `  RPC      ${v.rpc}`,
    '',
    ...v.steps.map((s) => `  [${MARK[s.result]}] ${s.step.padEnd(10)} ${s.detail}`),
    '',
    `${v.verdict === 'valid' ? 'VALID' : v.verdict === 'not_found' ? 'NOT FOUND' : 'NOT VALID'}: ${v.reason}`,
  ];
  return lines.join('\n') + '\n';
}

/** Runs the CLI; returns the exit code (the launcher exits with it). */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  let json = argv.includes('--json');
  try {
    const { opts, pos } = parse(argv);
    json = opts.json;
    if (opts.version) {
      io.out('attesta 0.1.0\n');
      return 0;
    }
    if (opts.help || pos.length === 0 || (pos[0] === 'verify' && pos.length === 1 && opts.help)) {
      (opts.help ? io.out : io.err)(HELP);
      return opts.help ? 0 : ExitCode.Error;
    }
    if (pos[0] !== 'verify') throw new UsageError(`Unknown command "${pos[0]}". Try: attesta verify <file|sha256>`);
    if (pos.length !== 2) throw new UsageError('verify takes exactly one <file|sha256>.');
    const rpc = opts.rpc ?? io.env.ATTESTA_RPC_URL ?? DEFAULT_RPC;
    if (!/^https?:\/\//.test(rpc)) throw new UsageError(`--rpc must be an http(s) URL, got "${rpc}".`);
    const verdict = await verifyCertificate({ arg: pos[1], rpc, programId: opts.program ?? io.env.ATTESTA_PROGRAM_ID });
    io.out(json ? JSON.stringify(verdict, null, 2) + '\n' : render(verdict));
    return verdict.exitCode;
  } catch (e) {
    const usage = e instanceof UsageError;
    const message = usage ? e.message : `Could not read the chain: ${e instanceof Error ? e.message : String(e)}`;
    if (json) io.out(JSON.stringify({ verdict: 'error', valid: false, exitCode: ExitCode.Error, reason: message }, null, 2) + '\n');
    else io.err(`attesta: ${message}\n${usage ? 'Run `attesta --help` for usage.\n' : ''}`);
    return ExitCode.Error;
  }
}
