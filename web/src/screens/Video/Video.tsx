/**
 * SPEC §2/§4/§9 Video: Generate (model, cost to 3 decimals, prompt, resolution, aspect ratio,
 * duration 5-12, status) and My Videos. Status is polled after 5 s, every 5 s, 10 s after a network
 * error, and stops on completed or failed; the "video:status" push ends it early.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { DEFAULT_VIDEO_MODEL, LIMITS, priceOf, VIDEO_MODELS, VIDEO_TIMING, type VideoModelId } from "@storefront/shared";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { PushOffer } from "../../push/PushOffer";
import { generateVideo, videoHistory, videoStatus, type Video as VideoRecord } from "../../api/videos";
import { announceWalletUpdate } from "../../api/wallet";
import { AppLink } from "../../components/AppLink";
import { BackButton } from "../../components/Layout";
import { GetCoinsLink } from "../../components/GetCoinsLink";
import { VideoIcon } from "../../components/icons";
import { LanguageToggle } from "../../components/LanguageToggle";
import { useToast } from "../../components/Toasts";
import { WalletBadge } from "../../components/WalletBadge";
import { useAuth } from "../../hooks/useAuth";
import { useChatErrors } from "../../hooks/useChatErrors";
import { useFormat } from "../../hooks/useFormat";
import { useServerEvent } from "../../hooks/useServerEvent";
import { useSignOut } from "../../hooks/useSignOut";
import { useWallet } from "../../hooks/useWallet";
import "./Video.css";

const RESOLUTIONS = ["720p", "1080p"] as const;
const ASPECT_RATIOS = ["16:9", "9:16", "1:1"] as const;
type Tone = "info" | "success" | "error";

export default function Video() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const toast = useToast();
  const format = useFormat();
  const signOut = useSignOut();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<"generate" | "history">("generate");
  const [model, setModel] = useState<VideoModelId>(DEFAULT_VIDEO_MODEL);
  const [prompt, setPrompt] = useState("");
  const [resolution, setResolution] = useState<(typeof RESOLUTIONS)[number]>("1080p");
  const [aspect, setAspect] = useState<(typeof ASPECT_RATIOS)[number]>("16:9");
  const [duration, setDuration] = useState<number>(LIMITS.videoDefaultSeconds);
  const [starting, setStarting] = useState(false);
  const [status, setStatus] = useState<{ tone: Tone; text: string; detail?: string } | null>(null);
  const [current, setCurrent] = useState<{ id: string; estimatedSeconds: number } | null>(null);
  const [finished, setFinished] = useState<VideoRecord | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const wallet = useWallet();
  const paidError = useChatErrors();

  const history = useQuery({
    queryKey: ["videos", user?.id],
    queryFn: () => videoHistory(user!.id),
    enabled: Boolean(user),
  });

  const stopPolling = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => stopPolling, [stopPolling]);

  const settle = useCallback(
    (video: Pick<VideoRecord, "status" | "videoUrl"> & Partial<VideoRecord>) => {
      stopPolling();
      setCurrent(null);
      if (video.status === "completed") {
        setStatus({ tone: "success", text: t("video.completed") });
        setFinished({ ...(video as VideoRecord) });
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

  // Charged in coins (shared priceOf, as the API does); the provider's dollar price is secondary.
  const dollars = (VIDEO_MODELS.find((m) => m.id === model)?.costPerSecond ?? 0) * duration;
  const coins = priceOf({ feature: "video", model, seconds: duration });
  const balance = wallet.data?.wallet.coins;
  const short = balance !== undefined && balance < coins;

  async function generate() {
    if (!user || starting || current) return;
    if (!prompt.trim()) {
      setStatus({ tone: "error", text: t("video.promptRequired") });
      return;
    }
    setStarting(true);
    setFinished(null);
    try {
      const started = await generateVideo(prompt.trim(), duration, user.id, { model, aspectRatio: aspect, resolution });
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

  function reset() {
    setPrompt("");
    setModel(DEFAULT_VIDEO_MODEL);
    setResolution("1080p");
    setAspect("16:9");
    setDuration(LIMITS.videoDefaultSeconds);
    setStatus(null);
    setFinished(null);
  }

  const videos = history.data ?? [];
  return (
    <div className="video-page">
      <header className="page-header">
        <div className="page-header__start">
          <BackButton />
          <h1 className="page-header__title">
            <VideoIcon size={20} className="page-header__icon" />
            {t("video.title")}
          </h1>
        </div>
        <div className="page-header__end">
          <LanguageToggle />
          {user ? (
            <>
              <WalletBadge />
              <span className="video-page__phone" dir="ltr">
                {user.phone}
              </span>
              <button type="button" className="btn btn--secondary" onClick={() => void signOut()}>
                {t("nav.signOut")}
              </button>
            </>
          ) : (
            <AppLink to="/login" className="btn btn--primary">
              {t("nav.signIn")}
            </AppLink>
          )}
        </div>
      </header>
      <main id="main" className="video-page__main">
        <div className="tabs" role="tablist" aria-label={t("video.tabsLabel")}>
          {(["generate", "history"] as const).map((key) => (
            <button
              key={key}
              id={`tab-${key}`}
              type="button"
              role="tab"
              aria-selected={tab === key}
              aria-controls={`panel-${key}`}
              className={tab === key ? "tab tab--on" : "tab"}
              onClick={() => setTab(key)}
            >
              {key === "generate" ? t("video.tabGenerate") : t("video.tabHistory")}
            </button>
          ))}
        </div>
        {tab === "generate" ? (
          <section id="panel-generate" role="tabpanel" aria-labelledby="tab-generate" className="video-page__generate">
            <form
              className="card"
              onSubmit={(e) => {
                e.preventDefault();
                void generate();
              }}
              noValidate
            >
              <div className="field">
                <label htmlFor="video-model">{t("video.model")}</label>
                <select
                  id="video-model"
                  className="select"
                  value={model}
                  onChange={(e) => setModel(e.target.value as VideoModelId)}
                >
                  {VIDEO_MODELS.map((m) => (
                    <option key={m.id} value={m.id}>
                      {t("video.modelOption", { name: m.name, price: format.money(m.costPerSecond, "USD", 2) })} ·{" "}
                      {t(`videoModels.${m.id}.description`, { defaultValue: m.description })}
                    </option>
                  ))}
                </select>
                <span className="video-page__cost" data-testid="video-cost">
                  {t("video.costCoins", { coins: format.number(coins), price: format.money(dollars, "USD", 3) })}
                </span>
                {balance !== undefined && (
                  <span className={short ? "field-error" : "field-hint"} data-testid="video-balance">
                    {short ? (
                      <>
                        {t("errors.insufficientCoins", { needed: format.number(coins), available: format.number(balance) })}{" "}
                        <GetCoinsLink />
                      </>
                    ) : (
                      t("video.balance", { coins: format.number(balance) })
                    )}
                  </span>
                )}
              </div>
              <div className="field">
                <label htmlFor="video-prompt">{t("video.prompt")}</label>
                <textarea
                  id="video-prompt"
                  className="textarea"
                  value={prompt}
                  placeholder={t("video.promptPlaceholder")}
                  onChange={(e) => setPrompt(e.target.value)}
                  maxLength={LIMITS.promptChars}
                />
              </div>
              <div className="video-page__row">
                <div className="field">
                  <label htmlFor="video-resolution">{t("video.resolution")}</label>
                  <select
                    id="video-resolution"
                    className="select"
                    value={resolution}
                    onChange={(e) => setResolution(e.target.value as (typeof RESOLUTIONS)[number])}
                  >
                    {RESOLUTIONS.map((r) => (
                      <option key={r}>{r}</option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="video-aspect">{t("video.aspectRatio")}</label>
                  <select
                    id="video-aspect"
                    className="select"
                    value={aspect}
                    onChange={(e) => setAspect(e.target.value as (typeof ASPECT_RATIOS)[number])}
                  >
                    {ASPECT_RATIOS.map((r) => (
                      <option key={r}>{r}</option>
                    ))}
                  </select>
                </div>
              </div>
              <div className="field">
                <label htmlFor="video-duration">{t("video.duration", { n: format.number(duration) })}</label>
                <input
                  id="video-duration"
                  type="range"
                  min={LIMITS.videoMinSeconds}
                  max={LIMITS.videoMaxSeconds}
                  step={1}
                  value={duration}
                  onChange={(e) => setDuration(Number(e.target.value))}
                />
              </div>
              <div className="video-page__actions">
                <button type="button" className="btn btn--secondary" onClick={reset}>
                  {t("video.reset")}
                </button>
                <button type="submit" className="btn btn--primary" disabled={starting || current !== null}>
                  {starting ? t("video.generating") : t("video.generate")}
                </button>
              </div>
            </form>
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
          </section>
        ) : (
          <section id="panel-history" role="tabpanel" aria-labelledby="tab-history">
            <p className="video-page__count">{t("video.count", { count: videos.length })}</p>
            {videos.length === 0 ? (
              <p className="empty-state">{t("video.empty")}</p>
            ) : (
              <ul className="video-grid">
                {videos.map((v) => (
                  <li key={v.id} className="card video-card">
                    {v.status === "completed" && v.videoUrl ? (
                      <video
                        src={v.videoUrl}
                        controls
                        preload="metadata"
                        aria-label={t("video.videoLabel", { prompt: v.prompt })}
                      />
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
        )}
      </main>
    </div>
  );
}

function VideoLinks({ url, prompt }: { url: string; prompt: string }) {
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
