#!/usr/bin/env node
// Launcher for the TypeScript CLI (cli/main.ts), compiled on the fly by tsx's API so the repo
// needs no build step: `npx attesta verify <file|sha256>` from the repository.
import { tsImport } from 'tsx/esm/api';

const { main } = await tsImport('../cli/main.ts', import.meta.url);
const code = await main(process.argv.slice(2));
// web3.js keeps HTTP agents alive; exit explicitly (stdout/stderr writes are synchronous for files and pipes).
process.exit(code);
