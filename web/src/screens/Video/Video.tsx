/**
 * SPEC §2/§4/§9 Video: Generate (model, cost to 3 decimals, prompt, resolution, aspect ratio,
 * duration 5-12, status) and My Videos. The form is VideoForm, the status card VideoStatus, the
 * history VideoHistory; useVideoJob starts a video and follows it to the end.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery } from "@tanstack/react-query";
import { videoHistory } from "../../api/videos";
import { AppLink } from "../../components/AppLink";
import { BackButton } from "../../components/Layout";
import { VideoIcon } from "../../components/icons";
import { LanguageToggle } from "../../components/LanguageToggle";
import { WalletBadge } from "../../components/WalletBadge";
import { useAuth } from "../../hooks/useAuth";
import { useSignOut } from "../../hooks/useSignOut";
import { useVideoJob } from "./useVideoJob";
import { DEFAULT_CHOICE, type VideoChoice } from "./videoChoice";
import { VideoForm } from "./VideoForm";
import { VideoHistory } from "./VideoHistory";
import { VideoStatus } from "./VideoStatus";
import "./Video.css";

const TABS = ["generate", "history"] as const;

export default function Video() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const signOut = useSignOut();
  const [tab, setTab] = useState<(typeof TABS)[number]>("generate");
  const [choice, setChoice] = useState<VideoChoice>(DEFAULT_CHOICE);
  const job = useVideoJob();
  const history = useQuery({
    queryKey: ["videos", user?.id],
    queryFn: () => videoHistory(user!.id),
    enabled: Boolean(user),
  });

  function reset() {
    setChoice(DEFAULT_CHOICE);
    job.clear();
  }

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
          {TABS.map((key) => (
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
            <VideoForm
              choice={choice}
              onChange={(patch) => setChoice((c) => ({ ...c, ...patch }))}
              onSubmit={() => void job.start(choice)}
              onReset={reset}
              starting={job.starting}
              running={job.current !== null}
            />
            <VideoStatus status={job.status} current={job.current} finished={job.finished} prompt={choice.prompt} />
          </section>
        ) : (
          <VideoHistory videos={history.data ?? []} />
        )}
      </main>
    </div>
  );
}
