/**
 * The Gmail agent: a LangGraph StateGraph of an agent node (a chat model bound to the mailbox tools)
 * and a tool node, looping until the model answers without a tool call, or until the step limit
 * (a clear message says so). Its input is the chat turn's assembled context — the same system
 * message with the memory lines and the same token-budgeted history as the text path.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { Annotation, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { contentText } from "./messages";

export const AgentState = Annotation.Root({
  ...MessagesAnnotation.spec,
  modelCalls: Annotation<number>({ reducer: (_, next) => next, default: () => 0 }),
});

export function stepLimitMessage(limit: number): string {
  return (
    `I stopped after ${limit} steps without finishing, so this answer may be incomplete. ` +
    "Try a narrower request (for example one sender or one email at a time)."
  );
}

export interface AgentGraphInput {
  model: BaseChatModel;
  tools: StructuredToolInterface[];
  /** The most model calls one turn may make (core/config agentConfig.maxModelCalls). */
  maxModelCalls: number;
}

export function buildAgentGraph({ model, tools, maxModelCalls }: AgentGraphInput) {
  if (!model.bindTools) throw new Error("The agent's chat model cannot call tools");
  const bound = model.bindTools(tools);

  const agent = async (state: typeof AgentState.State, config?: Parameters<typeof bound.invoke>[1]) => {
    if (state.modelCalls >= maxModelCalls) {
      return { messages: [new AIMessage(stepLimitMessage(maxModelCalls))], modelCalls: state.modelCalls };
    }
    const reply = await bound.invoke(state.messages, config);
    return { messages: [reply], modelCalls: state.modelCalls + 1 };
  };

  const next = (state: typeof AgentState.State) => {
    const last = state.messages.at(-1);
    return last && AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0 ? "tools" : END;
  };

  return new StateGraph(AgentState)
    .addNode("agent", agent)
    .addNode("tools", new ToolNode(tools))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", next, ["tools", END])
    .addEdge("tools", "agent")
    .compile();
}

/** The final answer: the last assistant message without tool calls. */
export function finalAnswer(messages: readonly BaseMessage[]): string {
  const last = [...messages].reverse().find((m) => AIMessage.isInstance(m) && (m.tool_calls?.length ?? 0) === 0);
  return last ? contentText(last) : "";
}
