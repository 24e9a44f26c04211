"use client";

import { useId, useState } from "react";
import { toast } from "sonner";
import { Switch } from "@/components/ui/switch";
import { api, errorMessage } from "@/lib/ui/api";

export function MemoryDefaultSwitch({ initial }: { initial: boolean }) {
  const [enabled, setEnabled] = useState(initial);
  const [pending, setPending] = useState(false);
  const id = useId();

  const change = async (next: boolean) => {
    setEnabled(next);
    setPending(true);
    try {
      await api("/api/account", { method: "PATCH", json: { memoryEnabledDefault: next } });
      toast.success(next ? "New chats will use memory" : "New chats start with memory off");
    } catch (error) {
      setEnabled(!next);
      toast.error(`Could not save: ${errorMessage(error)}`);
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="flex items-start gap-3">
      <Switch id={id} checked={enabled} disabled={pending} onCheckedChange={(next) => void change(next)} />
      <div className="space-y-0.5">
        <label htmlFor={id} className="text-sm font-medium">
          Use memory in new chats
        </label>
        <p className="text-xs text-muted-foreground">
          Off: new chats neither recall your memories nor save new ones. Existing chats keep their setting.
        </p>
      </div>
    </div>
  );
}
