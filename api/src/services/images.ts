/**
 * Images (SPEC §7 images/*): price, hold and queue the work through services/jobs.ts, keep each
 * user's history, and remove stored pictures with their record.
 */
import { Types } from "mongoose";
import {
  applyAgentTemplate,
  imageAgentById,
  MESSAGES,
  priceOf,
  type ImageAgentId,
  type ImageEditRequest,
  type ImageGenerateRequest,
  type ImageRecord,
  type ImageSaveRequest,
  type ImageSize,
} from "@storefront/shared";
import { hasImageUrl, listImages, loadWalletTables, ownerOfKey, removeImage, saveKeptImage } from "@storefront/shared/server";
import type { AppContext } from "../context";
import { badRequest, notFound } from "../errors";
import { acceptJob, waitForJob, type JobCall } from "./jobs";

/** The storage key behind one of our stored-file URLs (storedFileUrl), or null for any other URL. */
export function keyOfStoredFileUrl(url: string): string | null {
  const match = /^(?:https?:\/\/[^/]+)?\/api\/media\/(.+)$/u.exec(url);
  return match && ownerOfKey(match[1]!) ? match[1]! : null;
}

/**
 * The agent's template applied once: a prompt the client already wrapped (SPEC §7 sends "prompt
 * (from the agent template)") is not wrapped again.
 */
export function agentPrompt(agentId: ImageAgentId, prompt: string): string {
  const agent = imageAgentById(agentId);
  const [before = "", after = ""] = agent.promptTemplate.split("{prompt}");
  const trimmed = prompt.trim();
  if (before && trimmed.startsWith(before.trim()) && trimmed.endsWith(after.trim())) return trimmed;
  return applyAgentTemplate(agent, trimmed);
}

interface ImageWork {
  mode: "generate" | "edit";
  userPrompt: string;
  /** What the provider is asked for (the agent's template applied, when there is an agent). */
  prompt: string;
  agent: ImageAgentId;
  size: ImageSize;
  strength?: number;
  sourceKey?: string;
}

/** Prices and holds the picture, then adds its job (402 and no job when the wallet is short). */
async function acceptImageJob(ctx: AppContext, call: JobCall, work: ImageWork, imageId: string) {
  const { pricing } = await loadWalletTables();
  const cost = priceOf({ feature: "image" }, pricing);
  const accepted = await acceptJob(ctx, {
    queue: "image",
    name: work.mode,
    userId: call.userId,
    feature: "image",
    cost,
    idempotencyKey: call.idempotencyKey,
    // A label only: the ledger outlives the prompt and the deleted image (docs/security.md).
    details: `Image ${work.mode}`,
    payload: {
      mode: work.mode,
      imageId,
      prompt: work.prompt,
      userPrompt: work.userPrompt,
      size: work.size,
      agent: work.agent,
      ...(work.strength === undefined ? {} : { strength: work.strength }),
      ...(work.sourceKey ? { sourceKey: work.sourceKey } : {}),
    },
    ...(call.requestId ? { requestId: call.requestId } : {}),
    ...(call.arrivedAt ? { arrivedAt: call.arrivedAt } : {}),
  });
  return { ...accepted, cost };
}

/** Waits for the picture (bounded); the answer of both image calls. */
async function imageAnswer(ctx: AppContext, accepted: Awaited<ReturnType<typeof acceptImageJob>>) {
  const result = await waitForJob(ctx, "image", accepted.jobId);
  return {
    success: true as const,
    imageUrl: result.image.url,
    image: result.image,
    jobId: accepted.jobId,
    tokensUsed: accepted.cost,
    remainingCoins: accepted.remainingCoins,
  };
}

/** The payload of a queued job (null once it is gone), to tell which request's records it uses. */
async function jobPayload(
  ctx: AppContext,
  queue: "image" | "video",
  jobId: string,
): Promise<{ videoId?: string; sourceKey?: string } | null> {
  const job = await ctx.queues[queue].getJob(jobId);
  return (job?.data as { videoId?: string; sourceKey?: string } | undefined) ?? null;
}

/** POST images/generate.php: the picture enhancer edits an upload, so it is refused here. */
export async function generateImage(ctx: AppContext, input: ImageGenerateRequest, call: JobCall) {
  const agent = imageAgentById(input.agent);
  if (agent.mode === "edit") throw badRequest(MESSAGES.imageRequired, "image");
  const work: ImageWork = {
    mode: "generate",
    userPrompt: input.prompt,
    prompt: agentPrompt(agent.id, input.prompt),
    agent: agent.id,
    size: input.size ?? agent.defaultSize,
  };
  return imageAnswer(ctx, await acceptImageJob(ctx, call, work, new Types.ObjectId().toHexString()));
}

/**
 * POST images/edit.php: the upload is stored first so any worker can read it; the worker
 * removes it once the job is over.
 */
export async function editImage(
  ctx: AppContext,
  input: ImageEditRequest,
  upload: { buffer: Buffer; ext: string },
  call: JobCall,
) {
  const imageId = new Types.ObjectId().toHexString();
  const sourceKey = `uploads/${call.userId}/${imageId}.${upload.ext}`;
  const agent = input.agent ? imageAgentById(input.agent) : undefined;
  const work: ImageWork = {
    mode: "edit",
    userPrompt: input.prompt,
    // Without an agent the user's words are the edit instruction as they typed them.
    prompt: agent ? agentPrompt(agent.id, input.prompt) : input.prompt,
    agent: agent?.id ?? "picture-enhancer",
    size: input.size ?? agent?.defaultSize ?? "1024x1024",
    strength: input.strength,
    sourceKey,
  };
  await ctx.storage.put(sourceKey, upload.buffer);
  let accepted;
  try {
    accepted = await acceptImageJob(ctx, call, work, imageId);
  } catch (error) {
    await ctx.storage.remove(sourceKey).catch(() => undefined);
    throw error;
  }
  // Two requests with one Idempotency-Key share one job: the upload it names is the one kept.
  const owner = await jobPayload(ctx, "image", accepted.jobId);
  if (owner?.sourceKey !== sourceKey && (owner || accepted.replayed)) await ctx.storage.remove(sourceKey).catch(() => undefined);
  return imageAnswer(ctx, accepted);
}

/** GET images/history.php: newest first. */
export async function imageHistory(userId: string): Promise<{ success: true; images: ImageRecord[] }> {
  return { success: true, images: await listImages(userId) };
}

/**
 * POST images/save.php: only pictures the product made for this user may be saved: their own
 * stored file (the URL as storedFileUrl writes it) or a URL already in their history (written by
 * the image worker); any other URL (another user's file, `javascript:`, a foreign site) is
 * refused, so the history shows nothing the product did not produce.
 */
export async function saveImage(ctx: AppContext, userId: string, input: ImageSaveRequest["imageData"]) {
  const key = /^\/api\/media\//u.test(input.url) ? keyOfStoredFileUrl(input.url) : null;
  const ownKey = key && ownerOfKey(key) === userId ? key : null;
  if (!ownKey && !(await hasImageUrl(userId, input.url))) {
    throw badRequest("imageData.url: only pictures made for you here can be saved", "imageData.url");
  }
  const { unusedKey } = await saveKeptImage(userId, input, ownKey);
  await removeOwnFile(ctx, userId, unusedKey);
  return { success: true as const };
}

/** POST images/delete.php: owner only (another user's id is simply not found); removes the file. */
export async function deleteImage(ctx: AppContext, userId: string, imageId: string) {
  const removed = await removeImage(userId, imageId);
  if (!removed) throw notFound("Image not found");
  await removeOwnFile(ctx, userId, removed.unusedKey);
  return { success: true as const };
}

/** Removes a stored file a record no longer names, when it is the user's own. */
async function removeOwnFile(ctx: AppContext, userId: string, key: string | null): Promise<void> {
  if (key && ownerOfKey(key) === userId) await ctx.storage.remove(key);
}
