"use client";

import { Button } from "@/components/ui/button";
import { DialogClose, DialogFooter } from "@/components/ui/dialog";

/** Without `onConfirm` the action submits the dialog's form. */
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
