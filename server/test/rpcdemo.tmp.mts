import { startRpcServer } from './rpc-helpers';
import { tmpDataDir } from './helpers';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
const s = await startRpcServer(tmpDataDir());
const row = await s.server.services.db.selectFrom('certificate').select(['file_key','sha256']).where('id','=','cert-1').executeTakeFirstOrThrow();
fs.writeFileSync('/tmp/cert-1.pdf', (await s.server.services.blobs.get(row.file_key))!);
const r3 = await s.server.services.db.selectFrom('certificate').select(['sha256']).where('id','=','cert-3').executeTakeFirstOrThrow();
for (const args of [['verify','/tmp/cert-1.pdf','--rpc',s.url], ['verify', r3.sha256, '--rpc', s.url]]) {
  try { console.log(execFileSync('node', ['bin/attesta.mjs', ...args]).toString()); } catch (e: any) { console.log(e.stdout.toString(), 'exit', e.status); }
}
await s.close(); process.exit(0);
