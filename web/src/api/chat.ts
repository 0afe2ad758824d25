import type { z } from "zod";
import { chatResponseSchema, type chatRequestSchema, type ConversationMessage } from "@storefront/shared";
import { post } from "./client";

/** One message as the chat screens keep it and the conversation calls store it (SPEC §3); the screens always stamp it. */
export type ChatMessage = ConversationMessage & { timestamp: string };

/**
 * What the chat screens send: textai/chat.php's body (shared chatRequestSchema, before the server
 * parses it), every field given; avatarType is a persona id, or "doctor" from the Doctor screen.
 */
export type ChatRequest = Required<z.input<typeof chatRequestSchema>>;

/**
 * The reply text. Parsed (this module loads with the chat screens, not the first page): a reply
 * without a message is an error, never an empty bubble.
 */
/** The reply, and the job it was charged as (a first message's charge is filed under the thread once saved). */
export async function sendChat(body: ChatRequest, signal?: AbortSignal): Promise<{ reply: string; jobId: string }> {
  const parsed = chatResponseSchema.safeParse(await post<unknown>("textai/chat.php", body, signal));
  if (!parsed.success) throw new Error("Failed to send message");
  return { reply: parsed.data.message, jobId: parsed.data.jobId };
}
