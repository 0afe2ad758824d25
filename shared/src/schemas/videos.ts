/** Requests and records of the video calls (SPEC §7 videos/*), shared by api, workers and web. */
import { z } from "zod";
import { DEFAULT_VIDEO_MODEL, LIMITS, VIDEO_MODEL_IDS } from "../constants";
import { MESSAGES } from "../messages";
import { chargedJobBaseSchema } from "./charged-job";
import { clientUserIdSchema, intSchema } from "./common";

export const VIDEO_RATIOS = ["16:9", "9:16", "1:1"] as const;
export type VideoRatio = (typeof VIDEO_RATIOS)[number];
export const DEFAULT_VIDEO_RATIO: VideoRatio = "16:9";
export const VIDEO_RESOLUTIONS = ["720p", "1080p"] as const;
export const VIDEO_STATUSES = ["processing", "completed", "failed"] as const;
export type VideoStatusName = (typeof VIDEO_STATUSES)[number];

const durationMessage = `duration must be between ${LIMITS.videoMinSeconds} and ${LIMITS.videoMaxSeconds} seconds`;
const ratioSchema = z.enum(VIDEO_RATIOS, { error: `ratio must be one of ${VIDEO_RATIOS.join(", ")}` });

/**
 * POST videos/generate.php (helper, with userId) and videos/ai-store-generator.php (screen).
 * The screen sends only prompt and duration; model, ratio and resolution are optional extras.
 */
export const videoGenerateRequestSchema = z
  .object({
    prompt: z
      .string({ error: MESSAGES.promptRequired })
      .trim()
      .min(1, MESSAGES.promptRequired)
      .max(LIMITS.promptChars, `prompt must be at most ${LIMITS.promptChars} characters`),
    duration: intSchema
      .pipe(z.number().min(LIMITS.videoMinSeconds, durationMessage).max(LIMITS.videoMaxSeconds, durationMessage))
      .default(LIMITS.videoDefaultSeconds),
    userId: clientUserIdSchema.optional(),
    model: z.enum(VIDEO_MODEL_IDS, { error: `model must be one of ${VIDEO_MODEL_IDS.join(", ")}` }).default(DEFAULT_VIDEO_MODEL),
    ratio: ratioSchema.optional(),
    aspectRatio: ratioSchema.optional(),
    resolution: z.enum(VIDEO_RESOLUTIONS, { error: "resolution must be 720p or 1080p" }).optional(),
  })
  .transform(({ aspectRatio, ratio, ...rest }) => ({ ...rest, ratio: ratio ?? aspectRatio ?? DEFAULT_VIDEO_RATIO }));
export type VideoGenerateRequest = z.infer<typeof videoGenerateRequestSchema>;
/** The generate call's body as a client sends it (before defaults and the ratio's two spellings are read). */
export type VideoGenerateRequestBody = z.input<typeof videoGenerateRequestSchema>;

export const videoStatusQuerySchema = z.object({
  id: z.string({ error: "id is required" }).trim().min(1, "id is required").max(100),
});

export const videoHistoryQuerySchema = z.object({ userId: clientUserIdSchema.optional() });

/** A video as the calls answer it; both url spellings of SPEC §3 are present. */
export const videoRecordSchema = z.object({
  id: z.string(),
  status: z.enum(VIDEO_STATUSES),
  video_url: z.string().nullable(),
  videoUrl: z.string().nullable(),
  prompt: z.string(),
  duration: z.number().int(),
  model: z.enum(VIDEO_MODEL_IDS),
  ratio: z.enum(VIDEO_RATIOS),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  coins_used: z.number().int(),
  estimated_time: z.number().int(),
  error: z.string().nullable(),
});
export type VideoRecord = z.infer<typeof videoRecordSchema>;

export const videoGenerateResponseSchema = z.object({
  success: z.literal(true),
  video_id: z.string(),
  status: z.literal("processing"),
  estimated_time: z.number().int(),
  cost_deducted: z.number().int(),
  remaining_coins: z.number().int(),
});

export const videoStatusResponseSchema = z.object({ success: z.literal(true), video: videoRecordSchema });
export const videoHistoryResponseSchema = z.object({ success: z.literal(true), videos: z.array(videoRecordSchema) });

/**
 * Payload of a "video" queue job. The record it makes is found by the job id (videoIdForJob).
 * `taskId`/`submittedAt`/`pollErrors` are added by the worker once submitted.
 */
export const videoJobSchema = chargedJobBaseSchema.extend({
  prompt: z.string().min(1).max(LIMITS.promptChars),
  seconds: z.number().int().min(LIMITS.videoMinSeconds).max(LIMITS.videoMaxSeconds),
  model: z.enum(VIDEO_MODEL_IDS),
  ratio: z.enum(VIDEO_RATIOS),
  taskId: z.string().max(200).optional(),
  submittedAt: z.number().int().optional(),
  /** Consecutive transient errors while polling, retried by delaying the job again. */
  pollErrors: z.number().int().min(0).optional(),
});
export type VideoJobData = z.infer<typeof videoJobSchema>;

/** What a finished "video" job returns: the stored file of the completed video. */
export const videoJobResultSchema = z.object({
  videoId: z.string(),
  status: z.literal("completed"),
  /** Storage key of the file. */
  key: z.string().min(1),
  videoUrl: z.string().min(1),
});
export type VideoGenerateResponse = z.infer<typeof videoGenerateResponseSchema>;
export type VideoStatusResponse = z.infer<typeof videoStatusResponseSchema>;
export type VideoHistoryResponse = z.infer<typeof videoHistoryResponseSchema>;
