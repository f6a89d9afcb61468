// The institution portal's form validation (the shared zod schemas the server checks too), loaded
// after the page paints (lib/lazy-resolver.ts).
import type { Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { issueCertificateFields, registerIssuerInput } from '../../../../../shared/schemas/institutions';

export interface RegisterFormValues {
  name: string;
  domain: string;
}

export interface IssueFormValues {
  title: string;
  program_name: string;
  issue_date: string;
  holder_wallet: string;
  expires_on: string;
  certificate_file: File | null;
}

export const registerResolver = zodResolver(registerIssuerInput) as unknown as Resolver<RegisterFormValues>;
export const issueResolver = zodResolver(issueCertificateFields) as unknown as Resolver<IssueFormValues>;
