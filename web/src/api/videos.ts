import type {
  VideoGenerateResponse,
  VideoHistoryResponse,
  VideoRecord,
  VideoStatusName,
  VideoStatusResponse,
} from "@storefront/shared";
import { ApiError, get, post } from "./client";

export type VideoStatus = VideoStatusName;

export interface Video {
  id: string;
  prompt: string;
  status: VideoStatus;
  duration: number;
  created_at: string;
  estimated_time?: number;
  videoUrl: string | null;
  coins?: number;
}

/** The screen's view of a stored video (one url spelling, the coins it cost). */
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

export interface GenerateVideoResult {
  videoId: string;
  estimatedSeconds?: number;
  costDeducted?: number;
  remainingCoins?: number;
}

export interface VideoChoices {
  model?: string;
  aspectRatio?: string;
  resolution?: string;
}

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
    res = await post("videos/ai-store-generator.php", { prompt, duration, userId, ...choices });
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
