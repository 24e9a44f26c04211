"use client";

import { useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { api, errorMessage } from "@/lib/ui/api";

export function TimeZoneForm({ initial }: { initial: string | null }) {
  const [value, setValue] = useState(initial ?? "");
  const [pending, setPending] = useState(false);
  const id = useId();
  // The browser's list, read after hydration (the server's list may differ).
  const [known, setKnown] = useState<string[]>([]);
  useEffect(() => setKnown(Intl.supportedValuesOf("timeZone")), []);
  const zones = value && !known.includes(value) ? [value, ...known] : known;

  const change = async (next: string) => {
    const previous = value;
    setValue(next);
    setPending(true);
    try {
      await api("/api/account", { method: "PATCH", json: { timeZone: next } });
      toast.success(`Time zone set to ${next}`);
    } catch (error) {
      setValue(previous);
      toast.error(`Could not save: ${errorMessage(error)}`);
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        Time zone
      </label>
      <select
        id={id}
        value={value}
        disabled={pending}
        onChange={(event) => void change(event.target.value)}
        className="block h-9 w-full max-w-xs rounded-md border bg-background px-2 text-sm"
      >
        {!value && <option value="">Not set (UTC)</option>}
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        ))}
      </select>
      <p className="text-xs text-muted-foreground">
        Detected from your browser on your first visit. Deadlines (“by Friday”) are dated in it, and “overdue” is judged
        by its calendar.
      </p>
    </div>
  );
}
