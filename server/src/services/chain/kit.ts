import { createRequire } from 'node:module';

/**
 * @solana/kit as litesvm loads it. litesvm `require`s kit's CommonJS build; an `import` of kit here
 * would load its ES module build as well — kit and its two dozen @solana/* packages twice, ~0.13 s of
 * every start (#15; server/test/startup-imports.test.ts). The values passed between them are plain
 * (address strings, bigints, bytes), so one copy serves both.
 */
const kit = createRequire(import.meta.url)('@solana/kit') as typeof import('@solana/kit');

export const { address, getTransactionDecoder, lamports } = kit;
export type { Address } from '@solana/kit';
