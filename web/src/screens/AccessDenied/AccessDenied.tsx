/** SPEC §2 Access-denied screen, shown by the route guards; its Login link brings the visitor back to the page. */
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/AppLink";
import { LockIcon } from "../../components/icons";
import { LanguageToggle } from "../../components/LanguageToggle";
import "./AccessDenied.css";

/** `loginTo`: where the Login link goes (SPEC: /login; the user guard adds the page to come back to). */
export default function AccessDenied({ loginTo = "/login" }: { loginTo?: string }) {
  const { t } = useTranslation();
  return (
    <main className="access-denied" id="main">
      <div className="access-denied__toggle">
        <LanguageToggle />
      </div>
      <section className="card access-denied__card" aria-labelledby="access-denied-title">
        <div className="access-denied__icon" aria-hidden="true">
          <LockIcon size={40} />
        </div>
        <h1 id="access-denied-title">{t("accessDenied.title")}</h1>
        <p>{t("accessDenied.message")}</p>
        <div className="access-denied__links">
          <AppLink className="btn btn--primary" to={loginTo}>
            {t("accessDenied.login")}
          </AppLink>
          <AppLink className="btn btn--secondary" to="/">
            {t("accessDenied.home")}
          </AppLink>
        </div>
        <p className="access-denied__hint">{t("accessDenied.hint")}</p>
      </section>
    </main>
  );
}
