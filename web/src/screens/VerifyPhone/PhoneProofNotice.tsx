/** Tells a signed-in user whose number is not proven that SMS are not tied to the account, with a way to prove it. */
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/AppLink";
import { useUser } from "../../hooks/useAuth";
import "./VerifyPhone.css";

export function PhoneProofNotice() {
  const { t } = useTranslation();
  const user = useUser();
  if (user.phoneStatus === "proven") return null;
  return (
    <div className="alert alert--warning phone-proof-notice" role="status" data-testid="phone-proof-notice">
      <span>{user.phoneStatus === "released" ? t("verifyPhone.releasedTitle") : t("verifyPhone.why")}</span>
      <AppLink to="/verify-phone" className="btn btn--secondary">
        {t("verifyPhone.prove")}
      </AppLink>
    </div>
  );
}
