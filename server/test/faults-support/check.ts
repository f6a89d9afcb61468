import fs from 'node:fs';
import path from 'node:path';
import { fromHex } from '../../../shared/program/codec';
import type { Server } from '../../src/app';

/** Every file under the server's uploads dir, as slash keys (temporary files included). */
export function uploadedFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'uploads');
  const walk = (dir: string, prefix: string): string[] =>
    fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`])) : [];
  return walk(root, '');
}

/**
 * What must hold after any crash and restart, as a list of violations (empty = consistent):
 * every certificate row has its blob, a job and its anchor on chain for its holder; every blob
 * belongs to a row (certificate file or current profile photo); no half-written temp file; and,
 * on a chain only this server writes (`chainCertificates`), no anchor without a row.
 */
export async function violations(s: Server, opts: { chainCertificates?: boolean } = {}): Promise<string[]> {
  const { db, blobs, chain, config } = s.services;
  const out: string[] = [];
  const certs = await db.selectFrom('certificate').selectAll().execute();
  const photos = new Set((await db.selectFrom('user').select('profile_image_key').execute()).map((u) => u.profile_image_key).filter(Boolean));
  for (const c of certs) {
    if (!(await blobs.exists(c.file_key))) out.push(`certificate ${c.id} has no blob ${c.file_key}`);
    const jobs = await db.selectFrom('verification_job').select('id').where('certificate_id', '=', c.id).execute();
    if (!jobs.length) out.push(`certificate ${c.id} has no verification job`);
    const record = await chain.readCertificate(fromHex(c.sha256));
    if (!record) out.push(`certificate ${c.id} has no anchor on chain`);
    else if (record.holder.toBase58() !== c.holder_wallet) out.push(`certificate ${c.id} is anchored for another holder`);
  }
  for (const p of photos) if (!(await blobs.exists(p!))) out.push(`profile photo ${p} is missing`);
  const keys = new Set(certs.map((c) => c.file_key));
  for (const f of uploadedFiles(config.dataDir)) {
    if (path.posix.basename(f).startsWith('.tmp-')) out.push(`half-written temp file ${f}`);
    else if (f.startsWith('certificates/') ? !keys.has(f) : f.startsWith('photos/') ? !photos.has(f) : false) out.push(`orphaned blob ${f}`);
  }
  if (opts.chainCertificates) {
    const onChain = Number((await chain.readRegistry())?.certificateCount ?? 0n);
    if (onChain !== certs.length) out.push(`${onChain} anchors on chain for ${certs.length} certificate rows`);
  }
  return out;
}
