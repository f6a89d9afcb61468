// A small WAI-ARIA tablist (arrow keys, Home/End) for the three lookup modes. Hand-made rather than
// Radix Tabs to keep ~6 kB gzip off the verifier's page.
import { useId, useRef, type ReactNode } from 'react';
import { cn } from '../../../lib/utils';

export interface LookupTab {
  value: string;
  label: ReactNode;
  content: ReactNode;
}

export function LookupTabs({ tabs, value, onChange }: { tabs: LookupTab[]; value: string; onChange: (v: string) => void }) {
  const id = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const index = Math.max(0, tabs.findIndex((t) => t.value === value));

  function focusTab(i: number) {
    const next = (i + tabs.length) % tabs.length;
    onChange(tabs[next].value);
    refs.current[next]?.focus();
  }

  return (
    <div>
      <div role="tablist" aria-label="Verify by" className="grid w-full grid-cols-3 rounded-lg bg-muted p-1 text-muted-foreground">
        {tabs.map((t, i) => {
          const selected = i === index;
          return (
            <button
              key={t.value}
              ref={(el) => {
                refs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${t.value}`}
              aria-selected={selected}
              aria-controls={`${id}-panel-${t.value}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(t.value)}
              onKeyDown={(e) => {
                if (e.key === 'ArrowRight') focusTab(i + 1);
                else if (e.key === 'ArrowLeft') focusTab(i - 1);
                else if (e.key === 'Home') focusTab(0);
                else if (e.key === 'End') focusTab(tabs.length - 1);
                else return;
                e.preventDefault();
              }}
              className={cn(
                'inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium transition-all focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                selected ? 'bg-background text-foreground shadow-sm' : 'hover:text-foreground',
              )}
            >
              {t.label}
            </button>
          );
        })}
      </div>
      {tabs.map((t, i) => (
        <div
          key={t.value}
          role="tabpanel"
          id={`${id}-panel-${t.value}`}
          aria-labelledby={`${id}-tab-${t.value}`}
          hidden={i !== index}
          className="pt-4"
        >
          {i === index && t.content}
        </div>
      ))}
    </div>
  );
}
