import { toast } from '../../../lib/toast';

/** Copies a certificate's public link, and says whether it worked. */
export async function copyPublicLink(link: string) {
  try {
    await navigator.clipboard.writeText(link);
    toast.success('Link Copied', { description: 'Certificate link copied to clipboard.' });
  } catch {
    toast.error('Copy Failed', { description: 'Failed to copy the link to clipboard.' });
  }
}
