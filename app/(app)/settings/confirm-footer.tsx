"use client";

import { Button } from "@/components/ui/button";
import { DialogClose, DialogFooter } from "@/components/ui/dialog";

/**
 * The footer of a settings dialog that confirms something that cannot be undone: Cancel, which
 * closes it, and the destructive action, labelled while it runs. Without `onConfirm` the action
 * submits the dialog's form.
 */
export function ConfirmFooter({
  action,
  pendingAction,
  pending,
  disabled = false,
  onConfirm,
}: {
  action: string;
  pendingAction: string;
  pending: boolean;
  disabled?: boolean;
  onConfirm?: () => void;
}) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button type="button" variant="outline">
          Cancel
        </Button>
      </DialogClose>
      <Button
        type={onConfirm ? "button" : "submit"}
        variant="destructive"
        disabled={disabled || pending}
        onClick={onConfirm}
      >
        {pending ? pendingAction : action}
      </Button>
    </DialogFooter>
  );
}
