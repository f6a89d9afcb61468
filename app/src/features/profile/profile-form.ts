// The profile form's validation, loaded after the page paints (lib/lazy-resolver.ts).
import type { Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { updateProfileInput } from '../../../../shared/schemas/profile';

export const profileResolver = zodResolver(updateProfileInput) as unknown as Resolver<{ full_name: string; email: string }>;
