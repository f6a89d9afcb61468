import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { describe, expect, it } from 'vitest';
import { ASSOCIATED_TOKEN_ID, TOKEN_2022_ID, TOKEN_ID } from './ids';

describe('program ids', () => {
  it('the token programs written out are the ones @solana/spl-token names', () => {
    expect(TOKEN_2022_ID.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
    expect(ASSOCIATED_TOKEN_ID.equals(ASSOCIATED_TOKEN_PROGRAM_ID)).toBe(true);
    expect(TOKEN_ID.equals(TOKEN_PROGRAM_ID)).toBe(true);
  });
});
