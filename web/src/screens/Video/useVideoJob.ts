/**
 * One video generation on the screen: start it (charged), poll its status after 5 s, every 5 s,
 * 10 s after a network error, until completed or failed; the "video:status" push ends it early.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQueryClient } from "@tanstack/react-query";
import { DEFAULT_VIDEO_MODEL, LIMITS, VIDEO_TIMING, type VideoModelId } from "@storefront/shared";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { generateVideo, videoStatus, type Video } from "../../api/videos";
import { announceWalletUpdate } from "../../api/wallet";
import { useToast } from "../../components/Toasts";
import { useAuth } from "../../hooks/useAuth";
import { useChatErrors } from "../../hooks/useChatErrors";
import { useFormat } from "../../hooks/useFormat";
import { useServerEvent } from "../../hooks/useServerEvent";

export const RESOLUTIONS = ["720p", "1080p"] as const;
export const ASPECT_RATIOS = ["16:9", "9:16", "1:1"] as const;

/** What the form sends to generate. */
export interface VideoChoice {
  model: VideoModelId;
  prompt: string;
  resolution: (typeof RESOLUTIONS)[number];
  aspectRatio: (typeof ASPECT_RATIOS)[number];
  duration: number;
}

export const DEFAULT_CHOICE: VideoChoice = {
  model: DEFAULT_VIDEO_MODEL,
  prompt: "",
  resolution: "1080p",
  aspectRatio: "16:9",
  duration: LIMITS.videoDefaultSeconds,
};

export interface StatusLine {
  tone: "info" | "success" | "error";
  text: string;
  detail?: string;
}

export function useVideoJob() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const toast = useToast();
  const format = useFormat();
  const queryClient = useQueryClient();
  const paidError = useChatErrors();
  const [starting, setStarting] = useState(false);
  const [status, setStatus] = useState<StatusLine | null>(null);
  const [current, setCurrent] = useState<{ id: string; estimatedSeconds: number } | null>(null);
  const [finished, setFinished] = useState<Video | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const stopPolling = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => stopPolling, [stopPolling]);

  const settle = useCallback(
    (video: Pick<Video, "status" | "videoUrl"> & Partial<Video>) => {
      stopPolling();
      setCurrent(null);
      if (video.status === "completed") {
        setStatus({ tone: "success", text: t("video.completed") });
        setFinished({ ...(video as Video) });
      } else {
        setStatus({ tone: "error", text: t("video.failed") });
      }
      announceWalletUpdate();
      void queryClient.invalidateQueries({ queryKey: ["videos"] });
    },
    [stopPolling, t, queryClient],
  );

  const poll = useCallback(
    (id: string, delay: number) => {
      stopPolling();
      timer.current = setTimeout(async () => {
        try {
          const video = await videoStatus(id);
          if (video.status === "completed" || video.status === "failed") settle(video);
          else poll(id, VIDEO_TIMING.pollIntervalMs);
        } catch {
          poll(id, VIDEO_TIMING.errorRetryMs);
        }
      }, delay);
    },
    [stopPolling, settle],
  );

  useServerEvent("video:status", (event) => {
    if (current && event.videoId === current.id && event.status !== "processing") {
      settle({ id: event.videoId, status: event.status, videoUrl: event.videoUrl });
    }
  });

  async function start({ prompt, duration, model, aspectRatio, resolution }: VideoChoice) {
    if (!user || starting || current) return;
    if (!prompt.trim()) {
      setStatus({ tone: "error", text: t("video.promptRequired") });
      return;
    }
    setStarting(true);
    setFinished(null);
    try {
      const started = await generateVideo(prompt.trim(), duration, user.id, { model, aspectRatio, resolution });
      const estimatedSeconds = started.estimatedSeconds ?? VIDEO_TIMING.defaultEstimatedSeconds;
      setStatus({
        tone: "info",
        text: t("video.started"),
        ...(started.costDeducted !== undefined && started.remainingCoins !== undefined
          ? {
              detail: t("video.startedCost", {
                cost: format.number(started.costDeducted),
                remaining: format.number(started.remainingCoins),
              }),
            }
          : {}),
      });
      setCurrent({ id: started.videoId, estimatedSeconds });
      announceWalletUpdate();
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: ["videos"] }), 1000);
      poll(started.videoId, VIDEO_TIMING.firstPollMs);
    } catch (error) {
      const text =
        error instanceof ApiError && error.status === 402
          ? paidError(error, "")
          : error instanceof ApiError
            ? t("video.error", { error: errorMessage(error, error.message || t("video.unknownError")) })
            : error instanceof TypeError
              ? t("video.networkError", { message: error.message })
              : t("video.error", { error: (error as Error).message || t("video.unknownError") });
      setStatus({ tone: "error", text });
      toast.error(text);
    } finally {
      setStarting(false);
    }
  }

  /** The form was reset: the status line and the last result go with it (a running job keeps polling). */
  function clear() {
    setStatus(null);
    setFinished(null);
  }

  return { starting, status, current, finished, start, clear };
}
