/** The offline agent model: a LangChain chat model following the deterministic plan (planner.ts). */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { countTokens } from "@/lib/memory/tokens";
import { planNextStep, type ToolStep } from "./planner";

/** The offline agent model's id (its provider, "offline", is recorded beside it). */
export const OFFLINE_AGENT_MODEL_ID = "lifeline-offline-agent-1";

function textOf(message: BaseMessage): string {
  return typeof message.content === "string"
    ? message.content
    : message.content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");
}

function parse(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

export function readTurn(messages: readonly BaseMessage[]): { request: string; steps: ToolStep[] } {
  let start = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (HumanMessage.isInstance(messages[i])) {
      start = i;
      break;
    }
  }
  const request = start >= 0 ? textOf(messages[start] as BaseMessage) : "";
  const after = messages.slice(start + 1);
  const steps: ToolStep[] = [];
  for (const message of after) {
    if (!AIMessage.isInstance(message)) continue;
    for (const call of message.tool_calls ?? []) {
      const reply = after.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === call.id);
      steps.push({ tool: call.name, args: call.args, result: reply ? parse(textOf(reply)) : null });
    }
  }
  return { request, steps };
}

function readText(message: BaseMessage): string {
  const calls = AIMessage.isInstance(message) ? (message.tool_calls ?? []) : [];
  return [textOf(message), ...calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`)].join("\n");
}

/** Counted with Lifeline's one tokenizer, as the offline text model counts its own. */
function usageOf(messages: readonly BaseMessage[], reply: AIMessage) {
  const input_tokens = countTokens(messages.map(readText).join("\n"));
  const output_tokens = countTokens(readText(reply));
  return { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens };
}

export class OfflineAgentChatModel extends BaseChatModel {
  readonly modelId = OFFLINE_AGENT_MODEL_ID;

  constructor() {
    super({});
  }

  _llmType(): string {
    return "lifeline-offline-agent";
  }

  override bindTools(tools: BindToolsInput[]) {
    // The plan names its tools itself; binding keeps them in the call options, as providers do.
    return this.withConfig({ tools } as Partial<this["ParsedCallOptions"]>);
  }

  async _generate(
    messages: BaseMessage[],
    _options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const { request, steps } = readTurn(messages);
    const step = planNextStep(request, steps);
    if (step.kind === "answer") {
      await runManager?.handleLLMNewToken(step.text);
      const message = new AIMessage(step.text);
      message.usage_metadata = usageOf(messages, message);
      return { generations: [{ text: step.text, message }] };
    }
    const message = new AIMessage({
      content: "",
      tool_calls: [{ id: `offline-call-${steps.length + 1}`, name: step.tool, args: step.args, type: "tool_call" }],
    });
    message.usage_metadata = usageOf(messages, message);
    return { generations: [{ text: "", message }] };
  }
}
