import { Toaster as Sonner, type ToasterProps } from 'sonner';

// Sonner's defaults are the seed's constants (bottom-right, 4 s, 3 visible, Alt+T); kept as defaults.
// Only the bottom offset grows by the floating dock's height (app/FloatingDock.tsx), so toasts never
// cover the chat and feedback buttons.
const Toaster = ({ ...props }: ToasterProps) => {
  const theme = (
    typeof document !== 'undefined' && document.documentElement.classList.contains('dark')
      ? 'dark'
      : 'light'
  ) as ToasterProps['theme'];

  return (
    <Sonner
      theme={theme}
      className="toaster group"
      offset={{ bottom: 'calc(var(--dock-height, 0px) + 16px)' }}
      mobileOffset={{ bottom: 'calc(var(--dock-height, 0px) + 12px)' }}
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
        } as React.CSSProperties
      }
      {...props}
    />
  );
};

export { Toaster };
