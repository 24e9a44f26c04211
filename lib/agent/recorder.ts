/**
 * What the agent's debug record stores, captured at the model boundary by a LangChain callback:
 * the exact input of EVERY model call in the loop (the messages the model received, and the tools
 * it was offered), its output, and every tool call with its arguments and result — in order.
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import { type RecordedMessage, recordMessage } from "./messages";

export type AgentStep =
  | {
      type: "model";
      index: number;
      input: RecordedMessage[];
      tools: string[];
      output: RecordedMessage | null;
      ms: number | null;
    }
  | {
      type: "tool";
      name: string;
      toolCallId: string | null;
      input: unknown;
      output: string | null;
      error: string | null;
      ms: number | null;
    };

export class AgentRecorder extends BaseCallbackHandler {
  name = "lifeline-agent-recorder";
  readonly steps: AgentStep[] = [];
  private readonly started = new Map<string, { step: AgentStep; at: number }>();

  override handleChatModelStart(
    _llm: unknown,
    messages: BaseMessage[][],
    runId: string,
    _parentRunId?: string,
    extraParams?: Record<string, unknown>,
  ): void {
    // The tools the model was offered: in the call options (LangChain tools or OpenAI-format definitions).
    const options = (extraParams?.options ?? {}) as { tools?: { function?: { name?: string }; name?: string }[] };
    const step: AgentStep = {
      type: "model",
      index: this.steps.filter((s) => s.type === "model").length + 1,
      input: (messages[0] ?? []).map(recordMessage),
      tools: (options.tools ?? []).map((tool) => tool.function?.name ?? tool.name ?? "?"),
      output: null,
      ms: null,
    };
    this.steps.push(step);
    this.started.set(runId, { step, at: performance.now() });
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    const run = this.started.get(runId);
    if (run?.step.type !== "model") return;
    const generation = output.generations[0]?.[0] as { message?: BaseMessage } | undefined;
    run.step.output = generation?.message ? recordMessage(generation.message) : null;
    run.step.ms = Math.round(performance.now() - run.at);
    this.started.delete(runId);
  }

  override handleToolStart(
    _tool: unknown,
    input: string,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    runName?: string,
    toolCallId?: string,
  ): void {
    let parsed: unknown = input;
    try {
      parsed = JSON.parse(input);
    } catch {}
    const step: AgentStep = {
      type: "tool",
      name: runName ?? "tool",
      toolCallId: toolCallId ?? null,
      input: parsed,
      output: null,
      error: null,
      ms: null,
    };
    this.steps.push(step);
    this.started.set(runId, { step, at: performance.now() });
  }

  override handleToolEnd(output: unknown, runId: string): void {
    const run = this.started.get(runId);
    if (run?.step.type !== "tool") return;
    const content = (output as { content?: unknown } | null)?.content ?? output;
    run.step.output = typeof content === "string" ? content : JSON.stringify(content);
    run.step.ms = Math.round(performance.now() - run.at);
    this.started.delete(runId);
  }

  override handleToolError(error: unknown, runId: string): void {
    const run = this.started.get(runId);
    if (run?.step.type !== "tool") return;
    run.step.error = error instanceof Error ? error.message : String(error);
    run.step.ms = Math.round(performance.now() - run.at);
    this.started.delete(runId);
  }
}
