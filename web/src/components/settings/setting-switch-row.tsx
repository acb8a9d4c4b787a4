import type { ReactNode } from 'react';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';

/** One labelled on/off preference; `note` is a further remark below its description. */
export function SettingSwitchRow({
  id,
  label,
  description,
  checked,
  onCheckedChange,
  disabled,
  note,
}: {
  id: string;
  label: string;
  description: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  note?: ReactNode;
}) {
  const describedBy = note ? `${id}-description ${id}-note` : `${id}-description`;
  return (
    <div className="flex items-center justify-between gap-4 py-3">
      <div className="flex flex-col gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {description}
        </p>
        {note && (
          <p id={`${id}-note`} className="text-xs text-muted-foreground">
            {note}
          </p>
        )}
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} disabled={disabled} aria-describedby={describedBy} />
    </div>
  );
}
