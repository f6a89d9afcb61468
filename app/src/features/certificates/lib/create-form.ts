// The Certificate Details form's validation, loaded after the page paints (lib/lazy-resolver.ts).
import type { Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { createCertificateFields } from '../../../../../shared/schemas/certificate';

export interface CreateCertificateFormValues {
  title: string;
  institution_name: string;
  program_name: string;
  issue_date: string;
  certificate_file: File | null;
}

export const createCertificateResolver = zodResolver(createCertificateFields) as unknown as Resolver<CreateCertificateFormValues>;
