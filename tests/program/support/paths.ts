import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Where `npm run build:program` puts the program. */
export const DEPLOY_DIR = `${REPO_ROOT}programs/certificates/deploy`;
export const PROGRAM_SO = `${DEPLOY_DIR}/certificates.so`;

import { existsSync } from 'node:fs';
/** Fail fast (bankrun otherwise waits) when the program has not been built. */
export function assertProgramBuilt(): void {
  if (!existsSync(PROGRAM_SO)) throw new Error(`${PROGRAM_SO} is missing: run \`npm run build:program\``);
}
