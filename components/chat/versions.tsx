"use client";

import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import type { MessageInfo } from "./types";

function StepButton({
  label,
  to,
  disabled,
  onShow,
  children,
}: {
  label: string;
  /** The version it steps to; none at either end. */
  to: string | undefined;
  disabled: boolean;
  onShow: (messageId: string) => void;
  children: ReactNode;
}) {
  return (
    <Button
      variant="ghost"
      size="xs"
      className="w-7 px-0"
      aria-label={label}
      disabled={disabled || to === undefined}
      onClick={() => to && onShow(to)}
    >
      {children}
    </Button>
  );
}

/**
 * "‹ 2 / 3 ›" at a fork: steps to the message's previous or next version, whose branch the chat
 * then shows (docs/chat.md § Versions). Rendered only where there are several versions.
 */
export function VersionStepper({
  versions,
  onShow,
  disabled,
}: {
  versions: NonNullable<MessageInfo["versions"]>;
  /** Show this version (a sibling's id). */
  onShow: (messageId: string) => void;
  disabled: boolean;
}) {
  const { ids, index } = versions;
  const previous = ids[index - 1];
  const next = ids[index + 1];
  return (
    <fieldset
      aria-label={`Version ${index + 1} of ${ids.length}`}
      className="m-0 flex min-w-0 items-center border-0 p-0 text-xs text-muted-foreground"
      data-testid="versions"
    >
      <StepButton label="Previous version" to={previous} disabled={disabled} onShow={onShow}>
        <ChevronLeftIcon aria-hidden="true" />
      </StepButton>
      <span className="min-w-8 text-center tabular-nums" aria-hidden="true">
        {index + 1} / {ids.length}
      </span>
      <StepButton label="Next version" to={next} disabled={disabled} onShow={onShow}>
        <ChevronRightIcon aria-hidden="true" />
      </StepButton>
    </fieldset>
  );
}
