/**
 * /verify-phone: proving the phone number by the code sent to it. Signed in, the account proves its
 * own number (or, when its owner took it back, types another); from the signup screen's "it's my
 * number" (a number an unproven account holds), the visitor proves it and the account is created
 * with it. Until a number is proven no SMS is tied to the account; the rest of the app works.
 */
import { useTranslation } from "react-i18next";
import { Navigate, useLocation, useNavigate } from "react-router-dom";
import { TOAST_MS } from "@storefront/shared";
import { sendPhoneCode, signupWithCode, verifyPhoneCode } from "../../api/phone";
import { AppLink } from "../../components/AppLink";
import { AuthCard } from "../../components/AuthCard";
import { PageLoading } from "../../components/Spinner";
import { useToast } from "../../components/Toasts";
import { useAuth } from "../../hooks/useAuth";
import { PhoneCodeForm } from "./PhoneCodeForm";
import "./VerifyPhone.css";

/** What the signup screen hands over when the visitor says a taken number is theirs. */
interface ClaimState {
  claim: { phone: string; password: string };
}

function claimOf(state: unknown): ClaimState["claim"] | null {
  const claim = (state as Partial<ClaimState> | null)?.claim;
  return claim && typeof claim.phone === "string" && typeof claim.password === "string" ? claim : null;
}

export default function VerifyPhone() {
  const { t } = useTranslation();
  const { user, ready, setSessionUser } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const claim = claimOf(useLocation().state);

  if (!ready) return <PageLoading />;
  if (!claim && !user) return <Navigate to="/login" replace />;

  if (claim) {
    return (
      <AuthCard
        title={t("verifyPhone.claimTitle")}
        subtitle={t("verifyPhone.claimIntro")}
        footer={<AppLink to="/login">{t("auth.haveAccount")}</AppLink>}
      >
        <PhoneCodeForm
          phone={claim.phone}
          send={(phone) => sendPhoneCode(phone)}
          verify={(code, phone) => signupWithCode(phone, claim.password, code)}
          onVerified={() => {
            toast.success(t("auth.subscribedToast"), TOAST_MS.signup);
            navigate("/login", { replace: true });
          }}
        />
      </AuthCard>
    );
  }

  const account = user!;
  const released = account.phoneStatus === "released";
  const footer = <AppLink to="/dashboard">{t("verifyPhone.later")}</AppLink>;
  if (account.phoneStatus === "proven") {
    return (
      <AuthCard title={t("verifyPhone.title")} subtitle="" footer={footer}>
        <div className="alert alert--success" role="status" data-testid="phone-proven">
          {t("verifyPhone.proven")}
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t(released ? "verifyPhone.releasedTitle" : "verifyPhone.title")}
      subtitle={released ? t("verifyPhone.released") : t("verifyPhone.why")}
      footer={footer}
    >
      <PhoneCodeForm
        phone={released ? "" : account.phone}
        editablePhone={released}
        send={(phone) => sendPhoneCode(released ? phone : undefined)}
        verify={(code, phone) => verifyPhoneCode(code, released ? phone : undefined)}
        onVerified={(proven) => {
          setSessionUser(proven);
          toast.success(t("verifyPhone.proven"));
          navigate("/dashboard", { replace: true });
        }}
      />
    </AuthCard>
  );
}
