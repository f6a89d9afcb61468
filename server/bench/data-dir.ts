import path from 'node:path';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { openDatabase, type DatabaseTarget } from '../src/db';
import { EmbeddedChain } from '../src/services/chain/embedded';
import { loadOrCreateOperator } from '../src/services/chain/operator';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A data dir's database (migrated) and embedded chain, as the server opens them: the scale bench's fills. */
export async function openData(dataDir: string, target: DatabaseTarget) {
  const { db } = await openDatabase(target);
  const operator = loadOrCreateOperator(path.join(dataDir, 'operator.json'));
  const chain = await EmbeddedChain.start({
    db,
    programId: CERTIFICATES_PROGRAM_ID,
    programPath: path.join(ROOT, 'programs/certificates/deploy/certificates.so'),
    operator,
    sqliteFile: target.kind === 'sqlite' ? target.file : undefined,
  });
  return { db, chain };
}
