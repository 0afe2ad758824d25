/**
 * Follows one started video to its end: its status polled after 5 s, every 5 s, 10 s after a
 * network error, until completed or failed; the "video:status" push ends it early. `onEnd` gets the
 * finished (or failed) video once; the wallet and the video history are refreshed then.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { VIDEO_TIMING } from "@storefront/shared";
import { videoStatus, type Video } from "../../api/videos";
import { announceWalletUpdate } from "../../api/wallet";
import { useServerEvent } from "../../hooks/useServerEvent";

/** A video at its end, from the status call or the push (which carries no prompt or dates). */
export type EndedVideo = Pick<Video, "status" | "videoUrl"> & Partial<Video>;

/** The video being followed: its id and how long the server expects it to take. */
export interface RunningVideo {
  id: string;
  estimatedSeconds: number;
}

export function useVideoWatch(onEnd: (video: EndedVideo) => void) {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState<RunningVideo | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // A poll scheduled renders ago ends with the screen's latest handler.
  const ended = useRef(onEnd);
  useEffect(() => {
    ended.current = onEnd;
  });

  const stopPolling = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => stopPolling, [stopPolling]);

  const settle = useCallback(
    (video: EndedVideo) => {
      stopPolling();
      setCurrent(null);
      ended.current(video);
      announceWalletUpdate();
      void queryClient.invalidateQueries({ queryKey: ["videos"] });
    },
    [stopPolling, queryClient],
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

  /** Follows a video the server has just accepted. */
  function watch(video: RunningVideo) {
    setCurrent(video);
    poll(video.id, VIDEO_TIMING.firstPollMs);
  }

  return { current, watch };
}
