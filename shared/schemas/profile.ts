import { z } from 'zod';
import { MESSAGES } from '../constants';
import { formDataInput, uploadedFile } from './common';

export const updateProfileInput = z.object({
  full_name: z
    .string({ error: MESSAGES.fullNameRequired })
    .trim()
    .min(1, { error: MESSAGES.fullNameRequired })
    .max(120, { error: 'Full name must be at most 120 characters' }),
  // Optional: empty means "no e-mail".
  // Surrounding spaces (a paste) are trimmed before the address is checked.
  email: z
    .string({ error: MESSAGES.invalidEmail })
    .trim()
    .pipe(z.union([z.literal(''), z.email({ error: MESSAGES.invalidEmail })], { error: MESSAGES.invalidEmail }))
    .optional()
    .nullable()
    .transform((v) => (v ? v.trim().toLowerCase() : null)),
});
export type UpdateProfileInput = z.input<typeof updateProfileInput>;

export const uploadPhotoFields = z.object({ photo: uploadedFile('A photo file is required') });
export const uploadPhotoInput = formDataInput(uploadPhotoFields);
