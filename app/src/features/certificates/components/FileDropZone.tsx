// Drag-and-drop (or click/keyboard) file picker for a single file.
import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { cn } from '../../../lib/utils';

export function FileDropZone({
  accept,
  onFile,
  disabled,
  invalid,
  describedBy,
  children,
  label,
  className,
}: {
  accept: string;
  onFile: (file: File) => void;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  children: ReactNode;
  /** Accessible name of the file input. */
  label: string;
  className?: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setOver(false);
    if (disabled) return;
    const file = e.dataTransfer.files?.[0];
    if (file) onFile(file);
  }

  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="file-drop-zone"
      className={cn(
        'relative flex flex-col items-center justify-center rounded-xl border-2 border-dashed px-6 py-8 text-center transition-colors has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-ring has-[input:focus-visible]:ring-offset-2',
        over ? 'border-primary bg-primary/5' : invalid ? 'border-destructive' : 'border-muted-foreground/30 hover:border-primary/60',
        disabled && 'pointer-events-none opacity-60',
        className,
      )}
    >
      <label htmlFor={id} className="absolute inset-0 cursor-pointer rounded-xl">
        <span className="sr-only">{label}</span>
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className="sr-only"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          // Allow picking the same file again after removing it.
          e.target.value = '';
        }}
      />
      {children}
    </div>
  );
}
