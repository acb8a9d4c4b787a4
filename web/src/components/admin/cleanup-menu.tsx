import { useState } from 'react';
import { ChevronDown, FileX2, Loader2, Trash2, type LucideIcon } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { toast } from '@/lib/toast';
import type { CleanupKind } from '@/lib/types';
import { useCleanupMutation } from '@/queries/admin';

const CLEANUPS: Record<CleanupKind, { item: string; icon: LucideIcon; title: string; description: string; confirm: string }> = {
  orphaned: {
    item: 'Orphaned Files',
    icon: FileX2,
    title: 'Remove orphaned files?',
    description:
      'Removes stored files that no photo and no profile picture uses and that are more than an hour old, on every storage backend in use. Files in use are never touched.',
    confirm: 'Remove Files',
  },
  rejected: {
    item: 'Rejected Photos',
    icon: Trash2,
    title: 'Delete every rejected photo?',
    description: 'Permanently deletes all rejected photos and their files. Their owners will no longer see them or their rejection reasons. This cannot be undone.',
    confirm: 'Delete Rejected Photos',
  },
};

/** SPEC §2 Cleanup Files: orphaned files or rejected photos, each confirmed first; the result is the server's message. */
export function CleanupMenu() {
  const [kind, setKind] = useState<CleanupKind | null>(null);
  const cleanup = useCleanupMutation({ title: 'Error', description: 'Failed to cleanup files. Please try again.' });
  const chosen = kind ? CLEANUPS[kind] : null;

  const run = () => {
    if (!kind) return;
    cleanup.mutate(kind, {
      onSuccess: ({ message }) => toast({ title: 'Success', description: message }),
      onSettled: () => setKind(null),
    });
  };

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" disabled={cleanup.isPending}>
            {cleanup.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
            {cleanup.isPending ? 'Cleaning up...' : 'Cleanup Files'}
            <ChevronDown aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuLabel>Cleanup Files</DropdownMenuLabel>
          <DropdownMenuSeparator />
          {(Object.keys(CLEANUPS) as CleanupKind[]).map((id) => {
            const { item, icon: Icon } = CLEANUPS[id];
            return (
              <DropdownMenuItem
                key={id}
                variant={id === 'rejected' ? 'destructive' : 'default'}
                // 44 px to tap on a phone (WCAG 2.5.5), the denser menu from `sm` up.
                className="min-h-11 sm:min-h-0"
                onSelect={() => setKind(id)}
              >
                <Icon aria-hidden="true" />
                {item}
              </DropdownMenuItem>
            );
          })}
        </DropdownMenuContent>
      </DropdownMenu>

      <ConfirmDialog
        open={kind !== null}
        onOpenChange={(open) => {
          if (!open) setKind(null);
        }}
        title={chosen?.title}
        description={chosen?.description}
        confirmLabel={chosen?.confirm}
        pendingLabel="Working..."
        destructive={kind === 'rejected'}
        isPending={cleanup.isPending}
        onConfirm={run}
      />
    </>
  );
}
