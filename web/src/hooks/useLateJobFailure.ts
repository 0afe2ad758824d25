/**
 * The end of a job a screen stopped waiting for without it: its call answered 504 (the job carries
 * on) or 503 with `queued: true` (no worker answered; the coins went back and the job stays queued,
 * charged when it runs). A rerun refused (no coins left, daily cap reached) or a late failure is then
 * told only by its "job:failed" push: `onFailed` gets it as the error its call would have answered.
 */
import { useRef } from "react";
import { JobFailedError, pendingJobOf } from "../api/errors";
import { useServerEvent } from "./useServerEvent";

/** Returns `watch(error)`: call it with a failed call's error; a job it leaves pending is watched. */
export function useLateJobFailure(onFailed: (error: JobFailedError) => void): (error: unknown) => void {
  const pending = useRef(new Set<string>());
  useServerEvent("job:failed", (event) => {
    if (pending.current.delete(event.jobId)) onFailed(new JobFailedError(event));
  });
  useServerEvent("job:completed", (event) => {
    pending.current.delete(event.jobId);
  });
  return (error) => {
    const jobId = pendingJobOf(error);
    if (jobId) pending.current.add(jobId);
  };
}
