/** On the signup screen's "already subscribed": the number's owner proves it is theirs (/verify-phone). */
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { AppLink } from "../../components/AppLink";

export function ClaimNumberLink({ phone, password }: { phone: string; password: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AppLink
      to="/verify-phone"
      data-testid="claim-number"
      onClick={(event) => {
        // The typed number and password go along in memory only, never in the address.
        event.preventDefault();
        navigate("/verify-phone", { state: { claim: { phone, password } } });
      }}
    >
      {t("verifyPhone.claim")}
    </AppLink>
  );
}
