/** Captured at the model boundary, so the record holds the exact input of EVERY model call in the loop. */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import { type RecordedMessage, recordMessage } from "./messages";

export interface RecordedToolCall {
  name: string;
  toolCallId: string | null;
  input: unknown;
  output: string | null;
  error: string | null;
  ms: number | null;
}

export type AgentStep =
  | {
      type: "model";
      index: number;
      at: string;
      input: RecordedMessage[];
      tools: string[];
      output: RecordedMessage | null;
      ms: number | null;
      usage: AgentUsage | null;
    }
  | ({ type: "tool" } & RecordedToolCall);

/** Model calls take the text path's shape so a deleted memory's line is redacted from them the same way. */
export type AgentDebugStep =
  | {
      type: "agent-model";
      provider: string;
      modelId: string;
      at: string;
      params: { prompt: RecordedMessage[]; tools: string[]; temperature: number };
      output: RecordedMessage | null;
      ms: number | null;
      usage?: AgentUsage | null;
    }
  | ({ type: "agent-tool" } & RecordedToolCall);

export interface AgentUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export class AgentRecorder extends BaseCallbackHandler {
  name = "lifeline-agent-recorder";
  readonly steps: AgentStep[] = [];
  usage: AgentUsage | null = null;
  lastFinishReason: string | null = null;
  private readonly started = new Map<string, { step: AgentStep; at: number }>();

  /** Handlers are awaited (LangChain runs callbacks in the background by default), so every step is recorded first. */
  constructor(private readonly onModelCall?: () => Promise<void>) {
    super({ _awaitHandler: true });
  }

  modelCalls(): Extract<AgentStep, { type: "model" }>[] {
    return this.steps.filter((step) => step.type === "model");
  }

  debugSteps(model: { provider: string; modelId: string; temperature: number }): AgentDebugStep[] {
    return this.steps.map((step): AgentDebugStep => {
      if (step.type === "tool") {
        const { type: _type, ...rest } = step;
        return { type: "agent-tool", ...rest };
      }
      return {
        type: "agent-model",
        provider: model.provider,
        modelId: model.modelId,
        at: step.at,
        params: { prompt: step.input, tools: step.tools, temperature: model.temperature },
        output: step.output,
        ms: step.ms,
        usage: step.usage,
      };
    });
  }

  override async handleChatModelStart(
    _llm: unknown,
    messages: BaseMessage[][],
    runId: string,
    _parentRunId?: string,
    extraParams?: Record<string, unknown>,
  ): Promise<void> {
    // The tools the model was offered: in the call options (LangChain tools or OpenAI-format definitions).
    const options = (extraParams?.options ?? {}) as { tools?: { function?: { name?: string }; name?: string }[] };
    const step: AgentStep = {
      type: "model",
      index: this.steps.filter((s) => s.type === "model").length + 1,
      at: new Date().toISOString(),
      input: (messages[0] ?? []).map(recordMessage),
      tools: (options.tools ?? []).map((tool) => tool.function?.name ?? tool.name ?? "?"),
      output: null,
      ms: null,
      usage: null,
    };
    this.steps.push(step);
    this.started.set(runId, { step, at: performance.now() });
    await this.onModelCall?.();
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    const run = this.started.get(runId);
    if (run?.step.type !== "model") return;
    const generation = output.generations[0]?.[0] as { message?: BaseMessage } | undefined;
    run.step.output = generation?.message ? recordMessage(generation.message) : null;
    // Streamed, the server's finish reason is on the generation's info; whole, on the message's metadata.
    const info = (output.generations[0]?.[0] as { generationInfo?: { finish_reason?: unknown } } | undefined)
      ?.generationInfo?.finish_reason;
    const meta = (generation?.message as { response_metadata?: { finish_reason?: unknown } } | undefined)
      ?.response_metadata?.finish_reason;
    const finish = info ?? meta;
    this.lastFinishReason = typeof finish === "string" ? finish : null;
    const usage = (generation?.message as { usage_metadata?: Record<string, number> } | undefined)?.usage_metadata;
    if (usage) {
      const inputTokens = usage.input_tokens ?? 0;
      const outputTokens = usage.output_tokens ?? 0;
      const call = { inputTokens, outputTokens, totalTokens: usage.total_tokens ?? inputTokens + outputTokens };
      run.step.usage = call;
      this.usage = {
        inputTokens: (this.usage?.inputTokens ?? 0) + call.inputTokens,
        outputTokens: (this.usage?.outputTokens ?? 0) + call.outputTokens,
        totalTokens: (this.usage?.totalTokens ?? 0) + call.totalTokens,
      };
    }
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
