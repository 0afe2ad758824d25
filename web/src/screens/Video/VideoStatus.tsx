/** The Generate tab's status card: the last step's words, the spinner while the video is made, and the result's links. */
import { useTranslation } from "react-i18next";
import type { Video } from "../../api/videos";
import { useFormat } from "../../hooks/useFormat";
import { PushOffer } from "../../push/PushOffer";
import type { StatusLine } from "./useVideoJob";
import type { RunningVideo } from "./useVideoWatch";

interface VideoStatusProps {
  status: StatusLine | null;
  current: RunningVideo | null;
  finished: Video | null;
  /** The prompt in the form, naming a finished video whose record came without one (the push). */
  prompt: string;
}

export function VideoStatus({ status, current, finished, prompt }: VideoStatusProps) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <section
      className={`card video-status video-status--${status?.tone ?? "idle"}`}
      aria-live="polite"
      aria-labelledby="status-title"
    >
      <h2 id="status-title">{t("video.statusTitle")}</h2>
      <p data-testid="video-status">{status?.text ?? t("video.statusIdle")}</p>
      {status?.detail && <p>{status.detail}</p>}
      {current && (
        <p className="video-status__processing">
          <span className="spinner" aria-hidden="true" />{" "}
          {t("video.processing", { minutes: format.number(Math.max(1, Math.round(current.estimatedSeconds / 60))) })}
        </p>
      )}
      <PushOffer started={current?.id} />
      {finished?.videoUrl && <VideoLinks url={finished.videoUrl} prompt={finished.prompt || prompt} />}
    </section>
  );
}

/** View and Download of a finished video, named with its prompt for screen readers. */
export function VideoLinks({ url, prompt }: { url: string; prompt: string }) {
  const { t } = useTranslation();
  return (
    <div className="video-page__actions">
      <a
        className="btn btn--secondary btn--small"
        href={url}
        target="_blank"
        rel="noreferrer"
        aria-label={`${t("video.view")}: ${prompt}`}
      >
        {t("video.view")}
      </a>
      <a className="btn btn--primary btn--small" href={url} download aria-label={`${t("video.download")}: ${prompt}`}>
        {t("video.download")}
      </a>
    </div>
  );
}
