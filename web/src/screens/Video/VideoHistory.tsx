/** The My Videos tab: the user's videos (loaded with the screen, so the tab opens full), playable once completed. */
import { useTranslation } from "react-i18next";
import type { Video } from "../../api/videos";
import { useFormat } from "../../hooks/useFormat";
import { VideoLinks } from "./VideoStatus";

export function VideoHistory({ videos }: { videos: Video[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <section id="panel-history" role="tabpanel" aria-labelledby="tab-history">
      <p className="video-page__count">{t("video.count", { count: videos.length })}</p>
      {videos.length === 0 ? (
        <p className="empty-state">{t("video.empty")}</p>
      ) : (
        <ul className="video-grid">
          {videos.map((v) => (
            <li key={v.id} className="card video-card">
              {v.status === "completed" && v.videoUrl ? (
                <video src={v.videoUrl} controls preload="metadata" aria-label={t("video.videoLabel", { prompt: v.prompt })} />
              ) : (
                <div className={`video-card__placeholder video-card__placeholder--${v.status}`}>
                  {t(`video.statuses.${v.status}`)}
                </div>
              )}
              <p className="video-card__prompt">{v.prompt}</p>
              <dl className="video-card__meta">
                <dt>{t("video.durationLabel")}</dt>
                <dd>{t("video.durationValue", { n: format.number(v.duration) })}</dd>
                <dt>{t("video.coinsLabel")}</dt>
                <dd>{v.coins !== undefined ? format.number(v.coins) : "—"}</dd>
                <dt>{t("video.createdLabel")}</dt>
                <dd>{format.dateTime(v.created_at)}</dd>
              </dl>
              {v.status === "completed" && v.videoUrl && <VideoLinks url={v.videoUrl} prompt={v.prompt} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
