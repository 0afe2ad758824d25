/**
 * The "chat" queue: text personas and the Doctor. Streams the provider's deltas to the user's
 * room as "chat:delta" (coalesced to one push per 40 ms, the first at once; none for the SMS AI screen)
 * and returns the whole reply cleaned of markdown (SPEC §9); a reply cut after words were pushed is
 * returned as it stands (words delivered are paid, docs/ledger.md).
 */
import type { Job, Processor } from "bullmq";
import {
  cleanMarkdown,
  LIMITS,
  limitSmsReply,
  personaById,
  smsSystemPrompt,
  type ChatJobData,
  type ChatJobResult,
} from "@storefront/shared";
import { createChatProvider, type ChatProvider } from "../providers/chat/index";
import type { WorkerContext } from "../context";
import { ProviderError } from "../providers/errors";
import { answerDeadline, chargedProcessor } from "./charged";
import { coalesce } from "./coalesce";

let provider: ChatProvider | undefined;

function chatProvider(ctx: WorkerContext): ChatProvider {
  provider ??= createChatProvider(ctx.config);
  return provider;
}

/** Lets tests run the processor against a provider of their own. */
export function setChatProvider(next: ChatProvider): void {
  provider = next;
}

export async function runChat(ctx: WorkerContext, data: ChatJobData, job: Job): Promise<ChatJobResult> {
  const { pusher } = ctx;
  const jobId = job.id ?? "";
  const sms = data.channel === "sms";
  const persona = personaById(data.persona);
  let text = "";
  // The SMS AI screen shows the limited reply only: streaming its words would hand out the whole,
  // untruncated answer for the price of one SMS.
  const deltas = sms
    ? undefined
    : coalesce((delta) => pusher.toUser(data.userId, "chat:delta", { jobId, conversationId: data.conversationId, delta }));
  // The caller is answered by its deadline: a try still running then is cut off (and not retried).
  const deadline = answerDeadline("chat", data, job, ctx.config.AI_RETRY_BUDGET_MS);
  const cutOff = deadline === undefined ? undefined : AbortSignal.timeout(Math.max(1, deadline - Date.now()));
  try {
    for await (const delta of chatProvider(ctx).stream(
      {
        system: sms ? smsSystemPrompt(persona.systemPrompt, data.language) : persona.systemPrompt,
        history: data.history,
        message: data.message,
        language: data.language,
        persona: data.persona,
        maxTokens: sms ? LIMITS.smsReplyMaxTokens : LIMITS.chatReplyMaxTokens,
      },
      cutOff,
    )) {
      text += delta;
      deltas?.push(delta);
    }
  } catch (error) {
    // Words delivered are paid (docs/ledger.md): a reply cut (by the deadline or any failure) after
    // words reached the user is returned as it stands, charged once; only one that showed nothing fails.
    const partial = deltas && text ? cleanMarkdown(text) : "";
    if (partial) {
      ctx.log.warn({ err: error, jobId }, "chat reply cut after words were pushed; returned as it stands");
      setImmediate(() => deltas?.end());
      return { reply: partial };
    }
    deltas?.cancel();
    if (cutOff?.aborted) {
      throw new ProviderError(`the provider did not answer within the caller's ${ctx.config.AI_RETRY_BUDGET_MS} ms`, {
        retryable: true,
        cause: error,
      });
    }
    throw error;
  }
  // The last words go out at the end of this turn of the event loop: the caller's next write (the
  // kept result, on the job's way to completion) is sent first, and the client still gets every
  // delta before "job:completed", which waits for that write and for the settle.
  setImmediate(() => deltas?.end());
  const cleaned = cleanMarkdown(text);
  const reply = sms ? limitSmsReply(cleaned, data.language) : cleaned;
  if (!reply) throw new Error("The AI returned an empty reply");
  return { reply };
}

export function chatProcessor(ctx: WorkerContext): Processor {
  return chargedProcessor(ctx, "chat", (data, job) => runChat(ctx, data, job));
}
