import type { ReactNode } from 'react';
import { Check } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

/** A numbered step of the storage setup; a finished step shows a check mark instead of its number. */
export function SetupStep({
  number,
  title,
  description,
  done = false,
  children,
}: {
  number: number;
  title: string;
  description: ReactNode;
  done?: boolean;
  children: ReactNode;
}) {
  const titleId = `drive-step-${number}-title`;
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader className="flex-row items-start gap-4">
        <span
          className={cn(
            'flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-bold',
            done ? 'bg-emerald-600 text-white dark:bg-emerald-500 dark:text-emerald-950' : 'bg-primary text-primary-foreground',
          )}
          aria-hidden="true"
        >
          {done ? <Check className="size-5" /> : number}
        </span>
        <div className="flex min-w-0 flex-col gap-1.5">
          <CardTitle id={titleId} className="text-lg">
            <span className="sr-only">{done ? `Step ${number} (done): ` : `Step ${number}: `}</span>
            <span aria-hidden="true">Step {number}: </span>
            {title}
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="sm:pl-19">{children}</CardContent>
    </Card>
  );
}
