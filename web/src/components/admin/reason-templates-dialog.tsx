import { REASON_TEMPLATES, REJECTION_REASON } from '@snapcracks/http-contract';
import { useId, useState, type FormEvent } from 'react';
import { Loader2, MessageSquareText, Pencil, Plus, Save, Trash2 } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { getServerMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import type { ReasonTemplate, ReasonTemplateInput } from '@/lib/types';
import {
  useCreateReasonTemplateMutation,
  useDeleteReasonTemplateMutation,
  useReasonTemplatesQuery,
  useUpdateReasonTemplateMutation,
} from '@/queries/desk';
import { LabelWithCount } from '@/components/label-with-count';

const saveFailed = (error: Error) => ({ title: 'Error', description: getServerMessage(error, 'Failed to save the reason template. Please try again.') });
const deleteFailed = (error: Error) => ({ title: 'Error', description: getServerMessage(error, 'Failed to delete the reason template. Please try again.') });

/** The contract's rules for a template, checked before it is sent (the server checks them again). */
function templateProblems({ label, text }: ReasonTemplateInput): { label?: string; text?: string } {
  const problems: { label?: string; text?: string } = {};
  if (!label.trim()) problems.label = REASON_TEMPLATES.labelRequired;
  else if (label.trim().length > REASON_TEMPLATES.labelMaxLength) problems.label = REASON_TEMPLATES.labelTooLong;
  if (!text.trim()) problems.text = REJECTION_REASON.required;
  else if (text.trim().length > REJECTION_REASON.maxLength) problems.text = REJECTION_REASON.tooLong;
  return problems;
}

/**
 * The admins' reason templates: the reasons they give most often, written once and picked when rejecting or removing a
 * photo (at the review desk with the keys 1–9). Add, change and delete, at most REASON_TEMPLATES.max of them.
 */
export function ReasonTemplatesDialog() {
  const [open, setOpen] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ReasonTemplate | null>(null);
  const templates = useReasonTemplatesQuery({ enabled: open });
  const create = useCreateReasonTemplateMutation(saveFailed);
  const update = useUpdateReasonTemplateMutation(saveFailed);
  const remove = useDeleteReasonTemplateMutation(deleteFailed);
  const list = templates.data?.templates ?? [];
  const full = list.length >= REASON_TEMPLATES.max;

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => toast({ title: 'Template Deleted', description: `“${deleting.label}” is no longer offered.` }),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setEditingId(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <MessageSquareText aria-hidden="true" />
          Reason Templates
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Reason Templates</DialogTitle>
          <DialogDescription>
            Reasons you give often, to pick when you reject or remove a photo. At the review desk the first nine have the keys 1 to 9.
          </DialogDescription>
        </DialogHeader>

        {templates.isPending ? (
          <Loader2 className="mx-auto size-6 animate-spin text-muted-foreground" aria-label="Loading" />
        ) : templates.isError ? (
          <p role="alert" className="text-sm text-destructive dark:text-red-400">
            The reason templates could not be loaded.
          </p>
        ) : list.length === 0 ? (
          <p className="rounded-md border border-dashed p-4 text-center text-sm text-muted-foreground">No reason templates yet. Add the reasons you give most often.</p>
        ) : (
          <ol aria-label="Reason templates" className="flex flex-col gap-2">
            {list.map((template, index) => (
              <li key={template.id} aria-label={template.label} className="rounded-md border bg-muted/30 p-3 text-sm">
                {editingId === template.id ? (
                  <TemplateForm
                    initial={template}
                    submitLabel="Save"
                    isPending={update.isPending}
                    onCancel={() => setEditingId(null)}
                    onSubmit={(input) =>
                      update.mutate(
                        { id: template.id, ...input },
                        {
                          onSuccess: () => {
                            setEditingId(null);
                            toast({ title: 'Template Saved', description: `“${input.label}” has been changed.` });
                          },
                        },
                      )
                    }
                  />
                ) : (
                  <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                    <div className="min-w-0">
                      <p className="flex items-center gap-2 font-medium break-words">
                        {index < 9 && (
                          <kbd className="rounded border bg-muted px-1.5 font-mono text-xs" aria-label={`Key ${index + 1}`}>
                            {index + 1}
                          </kbd>
                        )}
                        {template.label}
                      </p>
                      <p className="mt-1 break-words text-muted-foreground">{template.text}</p>
                    </div>
                    <div className="flex shrink-0 gap-2">
                      <Button variant="outline" size="sm" aria-label={`Edit ${template.label}`} onClick={() => setEditingId(template.id)}>
                        <Pencil aria-hidden="true" />
                        Edit
                      </Button>
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={`Delete ${template.label}`}
                        className="text-destructive hover:text-destructive dark:text-red-400"
                        onClick={() => setDeleting(template)}
                      >
                        <Trash2 aria-hidden="true" />
                        Delete
                      </Button>
                    </div>
                  </div>
                )}
              </li>
            ))}
          </ol>
        )}

        {templates.data && (
          <section aria-labelledby="add-reason-template" className="flex flex-col gap-3 border-t pt-4">
            <h3 id="add-reason-template" className="font-semibold">
              Add a template
            </h3>
            {full ? (
              <p className="text-sm text-muted-foreground">{REASON_TEMPLATES.limitReached}</p>
            ) : (
              <TemplateForm
                // A new empty form after each template added.
                key={list.length}
                submitLabel="Add Template"
                isPending={create.isPending}
                onSubmit={(input) =>
                  create.mutate(input, { onSuccess: (template) => toast({ title: 'Template Added', description: `“${template.label}” can now be picked.` }) })
                }
              />
            )}
          </section>
        )}

        <ConfirmDialog
          open={deleting !== null}
          onOpenChange={(next) => !next && setDeleting(null)}
          title="Delete this template?"
          description={`“${deleting?.label ?? ''}” will no longer be offered. Photos already decided keep their reasons.`}
          confirmLabel="Delete Template"
          pendingLabel="Deleting..."
          destructive
          isPending={remove.isPending}
          onConfirm={confirmDelete}
        />
      </DialogContent>
    </Dialog>
  );
}

function TemplateForm({
  initial,
  submitLabel,
  isPending,
  onSubmit,
  onCancel,
}: {
  initial?: ReasonTemplateInput;
  submitLabel: string;
  isPending: boolean;
  onSubmit: (input: ReasonTemplateInput) => void;
  onCancel?: () => void;
}) {
  const [label, setLabel] = useState(initial?.label ?? '');
  const [text, setText] = useState(initial?.text ?? '');
  const [problems, setProblems] = useState<{ label?: string; text?: string }>({});
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { label: label.trim(), text: text.trim() };
    const found = templateProblems(input);
    setProblems(found);
    if (!found.label && !found.text) onSubmit(input);
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <LabelWithCount htmlFor={`${id}-label`} value={label} maxLength={REASON_TEMPLATES.labelMaxLength}>
          Name
        </LabelWithCount>
        <Input
          id={`${id}-label`}
          value={label}
          disabled={isPending}
          placeholder="e.g. Not a crack"
          aria-invalid={problems.label ? true : undefined}
          aria-describedby={problems.label ? `${id}-label-error` : undefined}
          onChange={(event) => {
            setLabel(event.target.value);
            if (problems.label) setProblems((current) => ({ ...current, label: undefined }));
          }}
        />
        {problems.label && (
          <p id={`${id}-label-error`} role="alert" className="text-sm font-medium text-destructive dark:text-red-400">
            {problems.label}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-1.5">
        <LabelWithCount htmlFor={`${id}-text`} value={text} maxLength={REJECTION_REASON.maxLength}>
          Reason
        </LabelWithCount>
        <Textarea
          id={`${id}-text`}
          rows={3}
          value={text}
          disabled={isPending}
          placeholder="The reason as the uploader will read it."
          aria-invalid={problems.text ? true : undefined}
          aria-describedby={problems.text ? `${id}-text-error` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            if (problems.text) setProblems((current) => ({ ...current, text: undefined }));
          }}
        />
        {problems.text && (
          <p id={`${id}-text-error`} role="alert" className="text-sm font-medium text-destructive dark:text-red-400">
            {problems.text}
          </p>
        )}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel && (
          <Button variant="outline" size="sm" disabled={isPending} onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" size="sm" disabled={isPending}>
          {isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : initial ? <Save aria-hidden="true" /> : <Plus aria-hidden="true" />}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
