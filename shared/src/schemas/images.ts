/** Requests and records of the image calls (SPEC §7 images/*), shared by api, workers and web. */
import { z } from "zod";
import { DEFAULT_IMAGE_AGENT, IMAGE_AGENT_IDS, IMAGE_EDIT_STRENGTH, IMAGE_SIZES, LIMITS } from "../constants";
import { MESSAGES } from "../messages";
import { chargedJobBaseSchema } from "./charged-job";
import { clientUserIdSchema, decimalSchema, objectIdSchema } from "./common";

export const IMAGE_MODES = ["generate", "edit"] as const;
export type ImageMode = (typeof IMAGE_MODES)[number];

const promptSchema = z
  .string({ error: MESSAGES.promptRequired })
  .trim()
  .min(1, MESSAGES.promptRequired)
  .max(LIMITS.promptChars, `prompt must be at most ${LIMITS.promptChars} characters`);

const sizeSchema = z.enum(IMAGE_SIZES, { error: `size must be one of ${IMAGE_SIZES.join(", ")}` });
const agentSchema = z.enum(IMAGE_AGENT_IDS, { error: `agent must be one of ${IMAGE_AGENT_IDS.join(", ")}` });

/** POST images/generate.php. Without a size the agent's default size is used. */
export const imageGenerateRequestSchema = z.object({
  prompt: promptSchema,
  size: sizeSchema.optional(),
  userId: clientUserIdSchema.optional(),
  agent: agentSchema.default(DEFAULT_IMAGE_AGENT),
});
export type ImageGenerateRequest = z.infer<typeof imageGenerateRequestSchema>;

/** The text fields of the images/edit.php multipart form (the file is the `image` field). */
export const imageEditRequestSchema = z.object({
  prompt: promptSchema,
  strength: decimalSchema
    .pipe(
      z
        .number()
        .min(IMAGE_EDIT_STRENGTH.min, "strength must be between 0.1 and 1")
        .max(IMAGE_EDIT_STRENGTH.max, "strength must be between 0.1 and 1"),
    )
    .default(IMAGE_EDIT_STRENGTH.apiDefault),
  size: sizeSchema.optional(),
  userId: clientUserIdSchema.optional(),
  agent: agentSchema.optional(),
});
export type ImageEditRequest = z.infer<typeof imageEditRequestSchema>;

/** One picture as the client keeps it (SPEC §3 "Generated image"). */
export const imageRecordSchema = z.object({
  id: z.string().trim().min(1, "imageData.id is required").max(100),
  url: z.string().trim().min(1, "imageData.url is required").max(2000),
  prompt: z.string().max(LIMITS.promptChars * 2),
  size: z.string().max(20),
  mode: z.enum(IMAGE_MODES),
  /** ISO time (numbers of milliseconds are accepted on save). */
  timestamp: z.string().max(40),
});
export type ImageRecord = z.infer<typeof imageRecordSchema>;

export const imageHistoryQuerySchema = z.object({ userId: clientUserIdSchema.optional() });

/** 2026-11-27, 2026-11-27T10:00:00Z, 2026-11-27T10:00:00.123+03:00 */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/u;

export const imageSaveRequestSchema = z.object({
  userId: clientUserIdSchema.optional(),
  imageData: imageRecordSchema.extend({
    prompt: z
      .string()
      .max(LIMITS.promptChars * 2)
      .default(""),
    size: z.string().max(20).default(""),
    mode: z.enum(IMAGE_MODES, { error: "imageData.mode must be generate or edit" }).default("generate"),
    /** An ISO date (or date-time), or milliseconds since 1970; anything else is refused, never replaced by now. */
    timestamp: z
      .union([z.string().trim().max(40).regex(ISO_DATE, "imageData.timestamp must be a date"), z.number().finite()])
      .transform((t, ctx) => {
        const date = new Date(t);
        if (!Number.isNaN(date.getTime())) return date.toISOString();
        ctx.addIssue({ code: "custom", message: "imageData.timestamp must be a date" });
        return z.NEVER;
      })
      .optional(),
  }),
});
export type ImageSaveRequest = z.infer<typeof imageSaveRequestSchema>;

export const imageDeleteRequestSchema = z.object({
  imageId: z.string({ error: "imageId is required" }).trim().min(1, "imageId is required").max(100),
  userId: clientUserIdSchema.optional(),
});

export const imageGenerateResponseSchema = z.object({
  success: z.literal(true),
  imageUrl: z.string(),
  image: imageRecordSchema,
  remainingCoins: z.number().int(),
});

export const imageHistoryResponseSchema = z.object({ success: z.literal(true), images: z.array(imageRecordSchema) });
export type ImageHistoryResponse = z.infer<typeof imageHistoryResponseSchema>;
export type ImageGenerateResponse = z.infer<typeof imageGenerateResponseSchema>;

/** Payload of an "image" queue job; the worker re-parses job.data with it. */
export const imageJobSchema = chargedJobBaseSchema.extend({
  mode: z.enum(IMAGE_MODES),
  /** The record id, also the file name of the result. */
  imageId: objectIdSchema,
  /** The prompt sent to the provider (agent template applied). */
  prompt: z
    .string()
    .min(1)
    .max(LIMITS.promptChars * 2),
  /** The prompt as the user typed it, kept in history. */
  userPrompt: z.string().max(LIMITS.promptChars),
  size: z.enum(IMAGE_SIZES),
  agent: z.enum(IMAGE_AGENT_IDS),
  /** Edit only: 0.1-1. */
  strength: z.number().min(IMAGE_EDIT_STRENGTH.min).max(IMAGE_EDIT_STRENGTH.max).optional(),
  /** Edit only: storage key of the uploaded picture. */
  sourceKey: z.string().max(200).optional(),
});
export type ImageJobData = z.infer<typeof imageJobSchema>;

/** What an image job returns (the HTTP call's answer is built from it). */
export const imageJobResultSchema = z.object({ image: imageRecordSchema });
export type ImageJobResult = z.infer<typeof imageJobResultSchema>;
