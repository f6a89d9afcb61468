import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { shortHash } from '../lib/format';

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      className="size-6 shrink-0"
      aria-label={`Copy ${label}`}
      title={copied ? 'Copied' : `Copy ${label}`}
      onClick={() =>
        void navigator.clipboard.writeText(value).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          },
          () => undefined,
        )
      }
    >
      {copied ? <Check className="size-3.5" aria-hidden="true" /> : <Copy className="size-3.5" aria-hidden="true" />}
    </Button>
  );
}

/**
 * A long value (hash, address) with a copy button: in full, wrapped, or — `short` — as its first and
 * last characters (never broken mid-string), the whole value on hover and for screen readers.
 */
export function CopyValue({ value, label, short = false, testId }: { value: string; label: string; short?: boolean; testId?: string }) {
  return (
    <span className="inline-flex max-w-full items-start gap-1 align-top">
      {short ? (
        <code className="whitespace-nowrap font-mono text-xs leading-6" title={value} data-testid={testId} data-value={value}>
          <span aria-hidden="true">{shortHash(value, 6, 6)}</span>
          <span className="sr-only">{value}</span>
        </code>
      ) : (
        <code className="min-w-0 break-all font-mono text-xs leading-5" data-testid={testId}>
          {value}
        </code>
      )}
      <CopyButton value={value} label={label} />
    </span>
  );
}

export function InfoRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm font-medium">{children}</dd>
    </div>
  );
}
