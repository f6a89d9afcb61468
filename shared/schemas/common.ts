import { z } from 'zod';

/** Text fields are trimmed before the required check (SEED-SPEC.md §5). */
export const requiredText = (message: string, max = 200) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Must be at most ${max} characters` });

export const solanaAddress = z
  .string({ error: 'A wallet address is required' })
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { error: 'Not a valid Solana address' });

export const sha256Hex = z
  .string({ error: 'A SHA-256 hash is required' })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{64}$/, { error: 'A SHA-256 hash is 64 hexadecimal characters' });

export const certificateId = z
  .string({ error: 'A certificate ID is required' })
  .trim()
  .min(1, { error: 'A certificate ID is required' })
  .max(64, { error: 'Not a valid certificate ID' });

/** FormData → plain object; the last value wins; File entries stay File. */
export function formDataToObject(fd: FormData): Record<string, FormDataEntryValue> {
  const out: Record<string, FormDataEntryValue> = {};
  for (const [k, v] of fd.entries()) out[k] = v;
  return out;
}

/** A non-empty uploaded file (the browser sends an empty File when none was picked). */
export const uploadedFile = (message: string) =>
  z.custom<File>((v) => typeof File !== 'undefined' && v instanceof File && v.size > 0, { error: message });

/** tRPC input for multipart procedures: FormData parsed into `schema`. */
export const formDataInput = <T extends z.ZodType>(schema: T) =>
  z
    .instanceof(FormData, { error: 'Expected a multipart form' })
    .transform((fd) => formDataToObject(fd) as z.input<T>)
    .pipe(schema as unknown as z.ZodType<z.output<T>, any>);
