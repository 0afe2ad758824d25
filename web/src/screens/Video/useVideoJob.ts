/**
 * One video generation on the screen: start it (charged), then follow it to the end (useVideoWatch);
 * the status line and the finished video.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useQueryClient } from "@tanstack/react-query";
import { VIDEO_TIMING } from "@storefront/shared";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { generateVideo, type Video } from "../../api/videos";
import { announceWalletUpdate } from "../../api/wallet";
import { useToast } from "../../components/Toasts";
import { useAuth } from "../../hooks/useAuth";
import { useChatErrors } from "../../hooks/useChatErrors";
import { useFormat } from "../../hooks/useFormat";
import type { VideoChoice } from "./videoChoice";
import { useVideoWatch } from "./useVideoWatch";

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
  const startError = useStartError();
  const [starting, setStarting] = useState(false);
  const [status, setStatus] = useState<StatusLine | null>(null);
  const [finished, setFinished] = useState<Video | null>(null);
  const { current, watch } = useVideoWatch((video) => {
    if (video.status === "completed") {
      setStatus({ tone: "success", text: t("video.completed") });
      setFinished({ ...(video as Video) });
    } else {
      setStatus({ tone: "error", text: t("video.failed") });
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
      watch({ id: started.videoId, estimatedSeconds: started.estimatedSeconds ?? VIDEO_TIMING.defaultEstimatedSeconds });
      announceWalletUpdate();
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: ["videos"] }), 1000);
    } catch (error) {
      const text = startError(error);
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

/** Why a video did not start, in the reader's language: short of coins (402), refused, or offline. */
function useStartError() {
  const { t } = useTranslation();
  const paidError = useChatErrors();
  return (error: unknown) =>
    error instanceof ApiError && error.status === 402
      ? paidError(error, "")
      : error instanceof ApiError
        ? t("video.error", { error: errorMessage(error, error.message || t("video.unknownError")) })
        : error instanceof TypeError
          ? t("video.networkError", { message: error.message })
          : t("video.error", { error: (error as Error).message || t("video.unknownError") });
}
