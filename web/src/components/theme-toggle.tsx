import { Moon, Sun } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useTheme } from '@/hooks/use-theme';

/**
 * Light/dark switch. The hover hint is the native `title`, not a Radix tooltip: the toggle is on the
 * landing page's first screen, and the tooltip brought Radix's popper, floating-ui and dismissable layer
 * (about a third of the landing page's own script) onto the critical path for one hint.
 */
export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const label = theme === 'dark' ? 'Switch to light mode' : 'Switch to dark mode';
  return (
    <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label={label} title={label}>
      {theme === 'dark' ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
    </Button>
  );
}
