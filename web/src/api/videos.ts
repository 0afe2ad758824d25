import { ApiError, get, post } from "./client";

export type VideoStatus = "processing" | "completed" | "failed";

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

interface RawVideo {
  id?: string | number;
  video_id?: string | number;
  prompt?: string;
  status?: VideoStatus;
  duration?: number;
  created_at?: string;
  estimated_time?: number;
  video_url?: string | null;
  videoUrl?: string | null;
  coins_used?: number;
  coins?: number;
  cost?: number;
}

function videoFrom(raw: RawVideo): Video {
  return {
    id: String(raw.video_id ?? raw.id ?? ""),
    prompt: raw.prompt ?? "",
    status: raw.status ?? "processing",
    duration: raw.duration ?? 0,
    created_at: raw.created_at ?? "",
    ...(raw.estimated_time !== undefined ? { estimated_time: raw.estimated_time } : {}),
    videoUrl: raw.video_url ?? raw.videoUrl ?? null,
    ...((raw.coins_used ?? raw.coins ?? raw.cost) !== undefined ? { coins: raw.coins_used ?? raw.coins ?? raw.cost } : {}),
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
  let res: {
    success?: boolean;
    video_id?: string | number;
    estimated_time?: number;
    cost_deducted?: number;
    remaining_coins?: number;
    error?: string;
  };
  try {
    res = await post("videos/ai-store-generator.php", { prompt, duration, userId, ...choices });
  } catch (error) {
    if (error instanceof ApiError && !error.serverError)
      throw new ApiError(`HTTP error! status: ${error.status}`, error.status, error.body);
    throw error;
  }
  if (!res.success || res.video_id === undefined) throw new Error(res.error ?? "Unknown error occurred");
  return {
    videoId: String(res.video_id),
    ...(res.estimated_time !== undefined ? { estimatedSeconds: res.estimated_time } : {}),
    ...(res.cost_deducted !== undefined ? { costDeducted: res.cost_deducted } : {}),
    ...(res.remaining_coins !== undefined ? { remainingCoins: res.remaining_coins } : {}),
  };
}

/** SPEC §7: an array, or {success, videos}. */
export async function videoHistory(userId: string): Promise<Video[]> {
  const res = await get<RawVideo[] | { videos?: RawVideo[] }>("videos/get-history.php", { userId });
  const list = Array.isArray(res) ? res : (res.videos ?? []);
  return list.map(videoFrom);
}

export async function videoStatus(videoId: string): Promise<Video> {
  const res = await get<{ success?: boolean; video?: RawVideo; error?: string }>("videos/check-status.php", { id: videoId });
  if (!res.video) throw new Error(res.error ?? "Unknown error occurred");
  return videoFrom({ video_id: videoId, ...res.video });
}
