"use client";

import { SlidersHorizontalIcon } from "lucide-react";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { NativeSelect } from "@/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Switch } from "@/components/ui/switch";
import { modelCapabilities } from "@/core/model-capabilities";
import type { ChatModelOption } from "@/lib/ai/registry";
import { MODE_LABELS, SELECTABLE_MODES } from "@/lib/ui/modes";
import type { ChatSettings } from "./types";

const TEMPERATURE_MAX = 2;

function TemperatureControl({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  const id = useId();
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="px-2 sm:px-3"
          aria-label={`Temperature ${value.toFixed(1)}`}
          title="Temperature"
        >
          <SlidersHorizontalIcon aria-hidden="true" />
          <span className="hidden tabular-nums sm:inline">{value.toFixed(1)}</span>
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-72">
        <div className="flex items-center justify-between">
          <label htmlFor={id} className="text-sm font-medium">
            Temperature
          </label>
          <output htmlFor={id} className="font-mono text-sm tabular-nums">
            {value.toFixed(1)}
          </output>
        </div>
        <input
          id={id}
          type="range"
          min={0}
          max={TEMPERATURE_MAX}
          step={0.1}
          value={value}
          onChange={(event) => onChange(Number(event.target.value))}
          className="mt-3 w-full accent-brand"
        />
        <div className="mt-1 flex justify-between text-xs text-muted-foreground">
          <span>Precise</span>
          <span>Creative</span>
        </div>
        <p className="mt-3 text-xs text-muted-foreground">Applies to the next message you send.</p>
      </PopoverContent>
    </Popover>
  );
}

export function ChatToolbar({
  title,
  settings,
  models,
  onChange,
  onMemoryChange,
  memoryPending,
  turnSettings = true,
}: {
  title: string | null;
  settings: ChatSettings;
  models: ChatModelOption[];
  onChange: (patch: Partial<ChatSettings>) => void;
  onMemoryChange: (enabled: boolean) => void;
  memoryPending: boolean;
  /** Model, mode and temperature shape the next turn: not shown where there is none (an imported chat). */
  turnSettings?: boolean;
}) {
  const memoryId = useId();
  return (
    // Phones: the title and the memory switch on one row, the model, mode and temperature on a
    // second row where each select has room for its label. Wider screens: one row.
    <div className="flex flex-wrap items-center gap-x-1.5 gap-y-1.5 border-b bg-background/80 px-2 py-2 backdrop-blur sm:flex-nowrap sm:gap-2 sm:px-4">
      <h1 className="min-w-0 flex-1 truncate pl-1 text-sm font-medium sm:pl-0" data-testid="chat-title">
        {title ?? "New chat"}
      </h1>
      {turnSettings && (
        <div className="order-last flex w-full min-w-0 items-center gap-1.5 sm:order-none sm:w-auto sm:gap-2">
          <NativeSelect
            aria-label="Model"
            value={settings.model}
            onChange={(event) => onChange({ model: event.target.value })}
            className="h-8 min-w-0 flex-1 text-[13px] sm:max-w-44 sm:flex-none"
          >
            {models.map((model) => (
              <option key={model.id} value={model.id}>
                {model.label}
              </option>
            ))}
          </NativeSelect>
          <NativeSelect
            aria-label="Mode"
            value={settings.mode}
            onChange={(event) => onChange({ mode: event.target.value as ChatSettings["mode"] })}
            className="h-8 min-w-0 flex-1 text-[13px] sm:flex-none"
            title={MODE_LABELS[settings.mode].hint}
          >
            {SELECTABLE_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {MODE_LABELS[mode].label}
              </option>
            ))}
          </NativeSelect>
          {/* A reasoning model takes only its default temperature: no control that would do nothing. */}
          {modelCapabilities(settings.model).temperature && (
            <TemperatureControl value={settings.temperature} onChange={(temperature) => onChange({ temperature })} />
          )}
        </div>
      )}
      <div className="flex shrink-0 items-center gap-1.5 sm:gap-2 sm:pl-1">
        <Switch
          id={memoryId}
          checked={settings.memoryEnabled}
          disabled={memoryPending}
          onCheckedChange={onMemoryChange}
          aria-describedby={`${memoryId}-hint`}
        />
        <label htmlFor={memoryId} className="text-[13px] font-medium">
          Memory
        </label>
        <span id={`${memoryId}-hint`} className="sr-only">
          When off, this chat neither uses nor saves memories.
        </span>
      </div>
    </div>
  );
}
