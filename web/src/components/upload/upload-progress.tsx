import { cn } from '@/lib/utils';

/** The upload's progress; once every byte is sent, the server still has to store the photo. */
export function UploadProgressBar({ percent, className }: { percent: number; className?: string }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex justify-between text-xs text-muted-foreground">
        <span>{value < 100 ? 'Uploading photo...' : 'Processing photo...'}</span>
        <span className="tabular-nums">{value}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        className="h-2 w-full overflow-hidden rounded-full bg-secondary"
      >
        <div className="h-full rounded-full bg-primary transition-[width] duration-200" style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}
