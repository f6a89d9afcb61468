// Entry of a document reader process (readers.ts). It starts without the TypeScript loader of the
// server (vitest transforms in-process; the server's `tsx` flags are not passed on), so the reader's
// body is loaded through tsx's scoped loader.
import { tsImport } from 'tsx/esm/api';

await tsImport('./reader.ts', import.meta.url);
