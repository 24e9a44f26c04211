"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { FormAlert } from "@/app/(auth)/_components/form-parts";
import { Button } from "@/components/ui/button";
import { Input, Label, Textarea } from "@/components/ui/input";
import { importConfig } from "@/core/config";
import { splitPastedMemories } from "@/lib/import/pasted";
import { api, errorMessage } from "@/lib/ui/api";

interface Item {
  key: number;
  text: string;
  keep: boolean;
}

export function PastedMemories() {
  const id = useId();
  const [pasted, setPasted] = useState("");
  const [items, setItems] = useState<Item[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const kept = items?.filter((item) => item.keep && item.text.trim().length > 0) ?? [];

  function review() {
    setSaved(null);
    setError(null);
    const split = splitPastedMemories(pasted, { max: importConfig.maxPastedMemories });
    if (split.length === 0) {
      setError("Nothing to review: paste the list another assistant gave you first.");
      return;
    }
    setItems(split.map((text, key) => ({ key, text, keep: true })));
  }

  async function save() {
    setBusy(true);
    setError(null);
    try {
      const texts = [...new Set(kept.map((item) => item.text.trim()))];
      const { memories } = await api<{ memories: unknown[] }>("/api/imports/pasted", { json: { memories: texts } });
      setSaved(memories.length);
      setItems(null);
      setPasted("");
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  const update = (key: number, change: Partial<Item>) =>
    setItems((list) => list?.map((item) => (item.key === key ? { ...item, ...change } : item)) ?? null);

  return (
    <div className="space-y-3">
      <div className="space-y-2">
        <Label htmlFor={id}>A memory list from another assistant</Label>
        <Textarea
          id={id}
          rows={5}
          maxLength={importConfig.maxPastedChars}
          value={pasted}
          placeholder="Ask the other assistant “What do you remember about me?” and paste its answer here."
          onChange={(event) => setPasted(event.currentTarget.value)}
        />
        <Button variant="outline" size="sm" onClick={review} disabled={pasted.trim().length === 0}>
          Review
        </Button>
      </div>
      {error && <FormAlert>{error}</FormAlert>}
      {saved !== null && (
        <p className="text-sm" role="status" data-testid="pasted-saved">
          Saved {saved} {saved === 1 ? "memory" : "memories"}.{" "}
          <Link href="/memories" className="text-brand hover:underline">
            See them
          </Link>
        </p>
      )}
      {items && (
        <div className="space-y-2" data-testid="pasted-review">
          <p className="text-sm text-muted-foreground">One memory per line. Uncheck what is wrong, edit what is off.</p>
          <ul className="space-y-2">
            {items.map((item) => (
              <li key={item.key} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={item.keep}
                  aria-label={`Keep “${item.text}”`}
                  onChange={(event) => update(item.key, { keep: event.currentTarget.checked })}
                />
                <Input
                  value={item.text}
                  aria-label="Memory"
                  disabled={!item.keep}
                  onChange={(event) => update(item.key, { text: event.currentTarget.value })}
                />
              </li>
            ))}
          </ul>
          <Button size="sm" onClick={() => void save()} disabled={busy || kept.length === 0}>
            Save {kept.length} {kept.length === 1 ? "memory" : "memories"}
          </Button>
        </div>
      )}
    </div>
  );
}
