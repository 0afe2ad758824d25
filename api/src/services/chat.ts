/**
 * Text chat and Doctor (SPEC §7 textai/chat.php): price the message, hold the coins, queue the
 * job, wait for the worker's reply. The same reply is streamed to the user's socket.
 */
import { priceOf, type ChatRequest, type ChatResponse } from "@storefront/shared";
import { loadWalletTables } from "@storefront/shared/server";
import type { AppContext } from "../context";
import { runJob } from "./jobs";

export interface ChatCall {
  userId: string;
  idempotencyKey: string | undefined;
  requestId?: string;
  /** When the HTTP request arrived (ms since the epoch). */
  arrivedAt?: number;
}

/** Doctor is charged by words (min 1), the personas by ceil(characters / 4) (SPEC §9). */
function chatPrice(input: Pick<ChatRequest, "avatarType" | "message">, pricing: Parameters<typeof priceOf>[1]) {
  const feature = input.avatarType === "doctor" ? ("doctor" as const) : ("text" as const);
  return { feature, cost: priceOf({ feature, message: input.message }, pricing) };
}

export async function chat(ctx: AppContext, input: ChatRequest, call: ChatCall): Promise<ChatResponse> {
  const { pricing } = await loadWalletTables();
  const { feature, cost } = chatPrice(input, pricing);
  const { accepted, result } = await runJob(ctx, {
    queue: "chat",
    name: feature,
    userId: call.userId,
    feature,
    cost,
    idempotencyKey: call.idempotencyKey,
    // A label only: the ledger is never changed, and the message (medical in Doctor) must go with its deleted conversation.
    details: feature === "doctor" ? "Doctor consultation" : "Text AI chat",
    conversationId: input.conversationId,
    payload: {
      message: input.message,
      persona: input.avatarType,
      language: input.language,
      conversationId: input.conversationId,
      history: input.conversationHistory,
    },
    ...(call.requestId ? { requestId: call.requestId } : {}),
    ...(call.arrivedAt ? { arrivedAt: call.arrivedAt } : {}),
  });
  return {
    success: true,
    message: result.reply,
    jobId: accepted.jobId,
    tokensUsed: cost,
    remainingCoins: accepted.remainingCoins,
  };
}
