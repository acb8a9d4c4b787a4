import { Select } from 'radix-ui';
import { Check, ChevronDown } from 'lucide-react';
import type { ContactFormStatus } from '@/lib/types';
import { CONTACT_FORM_STATUSES } from '@/queries/contact';
import { cn } from '@/lib/utils';
import { STATUS_STYLES } from './support-statuses';

/**
 * The status dropdown of one message (SPEC §4: any status from any other). A Radix Select: keyboard and
 * screen-reader support come with it. `label` names the control, e.g. "Status of the message from Sam".
 */
export function ContactFormStatusSelect({
  value,
  onChange,
  disabled,
  label,
}: {
  value: ContactFormStatus;
  onChange: (status: ContactFormStatus) => void;
  disabled?: boolean;
  label: string;
}) {
  return (
    <Select.Root
      value={value}
      onValueChange={(next) => {
        if (next !== value) onChange(next as ContactFormStatus);
      }}
      disabled={disabled}
    >
      <Select.Trigger
        aria-label={label}
        className={cn(
          'inline-flex h-9 w-40 items-center justify-between gap-2 rounded-md border border-input bg-background px-3 text-sm shadow-sm outline-none',
          'focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
          'disabled:cursor-not-allowed disabled:opacity-50',
        )}
      >
        <Select.Value />
        <Select.Icon asChild>
          <ChevronDown className="size-4 opacity-60" aria-hidden="true" />
        </Select.Icon>
      </Select.Trigger>
      <Select.Portal>
        <Select.Content
          position="popper"
          sideOffset={4}
          className="z-50 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-lg border bg-popover p-1 text-popover-foreground shadow-md data-[state=open]:animate-fade-in"
        >
          <Select.Viewport>
            {CONTACT_FORM_STATUSES.map((status) => {
              const { label: statusLabel, icon: Icon } = STATUS_STYLES[status];
              return (
                <Select.Item
                  key={status}
                  value={status}
                  className="relative flex cursor-pointer items-center gap-2 rounded-md py-1.5 pr-8 pl-2 text-sm outline-none select-none focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50"
                >
                  <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
                  <Select.ItemText>{statusLabel}</Select.ItemText>
                  <Select.ItemIndicator className="absolute right-2 inline-flex items-center">
                    <Check className="size-4" aria-hidden="true" />
                  </Select.ItemIndicator>
                </Select.Item>
              );
            })}
          </Select.Viewport>
        </Select.Content>
      </Select.Portal>
    </Select.Root>
  );
}
