"use client";

import { ThumbsDownIcon, ThumbsUpIcon } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { Popover, PopoverAnchor, PopoverContent } from "@/components/ui/popover";
import { useHydrated } from "@/components/use-hydrated";
import { api, errorMessage } from "@/lib/ui/api";
import { cn } from "@/lib/ui/cn";
import type { MessageInfo } from "./types";

type Rating = NonNullable<MessageInfo["rating"]>;
type Thumb = Rating["rating"];

const REASON_MAX = 1_000;

const ASK: Record<Thumb, string> = {
  up: "What was good about it? (optional)",
  down: "What was wrong with it? (optional)",
};

/**
 * Thumbs up / down on an answer. A click rates at once (clicking the chosen thumb again takes the
 * rating back); a popover then offers to say why. Stored with the answer: its debug view shows it.
 */
export function RatingButtons({ messageId, initial }: { messageId: string; initial: Rating | null }) {
  const [rating, setRating] = useState<Rating | null>(initial);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState(initial?.reason ?? "");
  const [saving, setSaving] = useState(false);
  const hydrated = useHydrated();

  const put = async (next: Rating) => {
    const { rating: stored } = await api<{ rating: Rating }>(`/api/messages/${messageId}/rating`, {
      method: "PUT",
      json: { rating: next.rating, reason: next.reason },
    });
    setRating(stored);
    return stored;
  };

  const choose = async (thumb: Thumb) => {
    const before = rating;
    try {
      if (before?.rating === thumb) {
        setRating(null);
        setAsking(false);
        await api(`/api/messages/${messageId}/rating`, { method: "DELETE" });
        return;
      }
      setRating({ rating: thumb, reason: null });
      setReason("");
      await put({ rating: thumb, reason: null });
      setAsking(true);
    } catch (error) {
      setRating(before);
      toast.error(`Could not save your rating: ${errorMessage(error)}`);
    }
  };

  const saveReason = async () => {
    if (!rating) return;
    setSaving(true);
    try {
      await put({ rating: rating.rating, reason: reason.trim() || null });
      setAsking(false);
      toast.success("Thanks for the feedback");
    } catch (error) {
      toast.error(`Could not save the reason: ${errorMessage(error)}`);
    } finally {
      setSaving(false);
    }
  };

  const thumb = (value: Thumb, label: string, Icon: typeof ThumbsUpIcon) => (
    <Button
      variant="ghost"
      size="xs"
      className={cn("text-muted-foreground hover:text-foreground", rating?.rating === value && "text-foreground")}
      aria-label={label}
      aria-pressed={rating?.rating === value}
      disabled={!hydrated}
      title={rating?.rating === value ? `${label} (click again to take it back)` : label}
      onClick={() => void choose(value)}
    >
      <Icon aria-hidden="true" className={cn(rating?.rating === value && "fill-current")} />
    </Button>
  );

  return (
    <Popover open={asking && rating !== null} onOpenChange={setAsking}>
      <PopoverAnchor asChild>
        <div className="flex" data-testid="answer-rating">
          {thumb("up", "Good answer", ThumbsUpIcon)}
          {thumb("down", "Bad answer", ThumbsDownIcon)}
        </div>
      </PopoverAnchor>
      {rating && (
        <PopoverContent aria-label="Why this rating">
          <form
            className="space-y-2"
            onSubmit={(event) => {
              event.preventDefault();
              void saveReason();
            }}
          >
            <label htmlFor={`rating-reason-${messageId}`} className="text-sm font-medium">
              {ASK[rating.rating]}
            </label>
            <Textarea
              id={`rating-reason-${messageId}`}
              value={reason}
              maxLength={REASON_MAX}
              rows={3}
              onChange={(event) => setReason(event.target.value)}
              placeholder={rating.rating === "down" ? "e.g. it used a memory that is out of date" : ""}
            />
            <p className="text-xs text-muted-foreground">
              Kept with this answer and shown when you inspect it; never sent to the model.{" "}
              <Link href="/messages/rated" className="underline underline-offset-2">
                All rated answers
              </Link>
            </p>
            <div className="flex justify-end gap-2">
              <Button type="button" variant="ghost" size="sm" onClick={() => setAsking(false)}>
                Skip
              </Button>
              <Button type="submit" size="sm" disabled={saving}>
                Save
              </Button>
            </div>
          </form>
        </PopoverContent>
      )}
    </Popover>
  );
}
