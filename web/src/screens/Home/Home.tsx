/** SPEC §2 Home: platform name, welcome text, four feature cards, sign-in / get-started / admin links. */
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/AppLink";
import { ChatIcon, ImageIcon, PhoneIcon, VideoIcon } from "../../components/icons";
import { LanguageToggle } from "../../components/LanguageToggle";
import { ensureFullCatalog } from "../../i18n";
import "./Home.css";

/** The price list is its own chunk with its texts in the full catalog: neither is on the first paint's path. */
const Prices = lazy(() => Promise.all([import("./Prices"), ensureFullCatalog()]).then(([module]) => module));

const FEATURES = [
  { key: "text", Icon: ChatIcon },
  { key: "image", Icon: ImageIcon },
  { key: "sms", Icon: PhoneIcon },
  { key: "video", Icon: VideoIcon },
] as const;

export default function Home() {
  const { t } = useTranslation();
  return (
    <div className="home">
      <header className="home__top">
        <span className="brand">
          <span className="brand__mark" aria-hidden="true">
            AI
          </span>
          {t("app.name")}
        </span>
        <nav className="home__nav" aria-label={t("nav.main")}>
          <LanguageToggle />
          <AppLink to="/login" className="btn btn--ghost">
            {t("home.signIn")}
          </AppLink>
          <AppLink to="/signup" className="btn btn--primary">
            {t("home.getStarted")}
          </AppLink>
        </nav>
      </header>
      <main id="main">
        <section className="home__hero">
          <h1>{t("home.title")}</h1>
          <p className="home__lead">{t("home.welcome")}</p>
          <div className="home__actions">
            <AppLink to="/signup" className="btn btn--primary home__cta">
              {t("home.getStarted")}
            </AppLink>
            <AppLink to="/login" className="btn btn--secondary home__cta">
              {t("home.signIn")}
            </AppLink>
          </div>
        </section>
        <section className="home__features" aria-labelledby="features-title">
          <h2 id="features-title" className="visually-hidden">
            {t("home.featuresTitle")}
          </h2>
          {FEATURES.map((feature) => (
            <article key={feature.key} className="card home__feature">
              <span className="home__feature-icon" aria-hidden="true">
                <feature.Icon size={28} />
              </span>
              <h3>{t(`home.features.${feature.key}.title`)}</h3>
              <p>{t(`home.features.${feature.key}.text`)}</p>
            </article>
          ))}
        </section>
        <Suspense fallback={null}>
          <Prices />
        </Suspense>
      </main>
      <footer className="home__footer">
        <span>{t("home.footer")}</span>
        <AppLink to="/admin-login">{t("home.adminLogin")}</AppLink>
      </footer>
    </div>
  );
}
