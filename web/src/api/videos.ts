import type {
  VideoGenerateRequestBody,
  VideoGenerateResponse,
  VideoHistoryResponse,
  VideoRecord,
  VideoStatusResponse,
} from "@storefront/shared";
import { ApiError, get, post } from "./client";

/**
 * The screen's view of a stored video (shared VideoRecord): one url spelling, and the coins it cost
 * as `coins`; the estimate and the cost only when the answer had them.
 */
export type Video = Pick<VideoRecord, "id" | "prompt" | "status" | "duration" | "created_at" | "videoUrl"> &
  Partial<Pick<VideoRecord, "estimated_time">> & { coins?: VideoRecord["coins_used"] };

/** Reads a stored video as the screen keeps it. */
function videoFrom(raw: Partial<VideoRecord> & { id: string }): Video {
  return {
    id: raw.id,
    prompt: raw.prompt ?? "",
    status: raw.status ?? "processing",
    duration: raw.duration ?? 0,
    created_at: raw.created_at ?? "",
    ...(raw.estimated_time !== undefined ? { estimated_time: raw.estimated_time } : {}),
    videoUrl: raw.videoUrl ?? raw.video_url ?? null,
    ...(raw.coins_used !== undefined ? { coins: raw.coins_used } : {}),
  };
}

/** A started generation: shared VideoGenerateResponse in the screen's names. */
export interface GenerateVideoResult {
  videoId: VideoGenerateResponse["video_id"];
  estimatedSeconds: VideoGenerateResponse["estimated_time"];
  costDeducted: VideoGenerateResponse["cost_deducted"];
  remainingCoins: VideoGenerateResponse["remaining_coins"];
}

/** The extras the screen sends beside prompt and duration (shared videoGenerateRequestSchema). */
export type VideoChoices = Pick<VideoGenerateRequestBody, "model" | "aspectRatio" | "resolution">;

/**
 * Starts a generation: prompt and duration (SPEC §5), plus the model, ratio and resolution the
 * screen shows, so the price shown before Generate is the price charged. Non-OK statuses without a
 * body error read "HTTP error! status: {code}" as the video screen words it.
 */
export async function generateVideo(
  prompt: string,
  duration: number,
  userId: string,
  choices: VideoChoices = {},
): Promise<GenerateVideoResult> {
  let res: VideoGenerateResponse;
  try {
    const body: VideoGenerateRequestBody = { prompt, duration, userId, ...choices };
    res = await post("videos/ai-store-generator.php", body);
  } catch (error) {
    if (error instanceof ApiError && !error.serverError)
      throw new ApiError(`HTTP error! status: ${error.status}`, error.status, error.body);
    throw error;
  }
  if (!res?.video_id) throw new Error("Unknown error occurred");
  return {
    videoId: res.video_id,
    estimatedSeconds: res.estimated_time,
    costDeducted: res.cost_deducted,
    remainingCoins: res.remaining_coins,
  };
}

export async function videoHistory(userId: string): Promise<Video[]> {
  return (await get<VideoHistoryResponse>("videos/get-history.php", { userId })).videos.map(videoFrom);
}

export async function videoStatus(videoId: string): Promise<Video> {
  const res = await get<VideoStatusResponse>("videos/check-status.php", { id: videoId });
  if (!res?.video) throw new Error("Unknown error occurred");
  return videoFrom({ ...res.video, id: res.video.id || videoId });
}
