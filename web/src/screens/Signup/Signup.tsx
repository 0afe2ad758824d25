/**
 * SPEC §2 Signup: "Subscribing...", then a green notice and a 5 s toast, the form disabled, and
 * /login after 3 s. A taken phone (code phone_taken) offers a sign-in link.
 */
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { AppLink } from "../../components/AppLink";
import { signupRequestSchema, TOAST_MS } from "@storefront/shared";
import { ApiError } from "../../api/client";
import { errorMessageLoaded } from "../../api/errors";
import { AuthCard, PasswordField } from "../../components/AuthCard";
import { PhoneField } from "../../components/PhoneField/PhoneField";
import { useToast } from "../../components/Toasts";
import { useAuth } from "../../hooks/useAuth";
import { useCredentials } from "../../hooks/useFieldErrors";
import { sendPhoneCode } from "../../api/phone";
import { ClaimNumberLink } from "../VerifyPhone/ClaimNumberLink";
import { useHydrated } from "../../hooks/useHydrated";

export default function Signup() {
  const { t } = useTranslation();
  const { signup } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const { phone, setPhone, password, setPassword, errors, check } = useCredentials(signupRequestSchema, (value) =>
    value ? t("auth.passwordMin") : t("auth.passwordRequired"),
  );
  const [formError, setFormError] = useState("");
  const [offerSignIn, setOfferSignIn] = useState(false);
  const [state, setState] = useState<"idle" | "submitting" | "subscribed">("idle");
  // Off until the script has the form (useHydrated): never the browser's own GET with the password.
  const hydrated = useHydrated();

  useEffect(() => {
    if (state !== "subscribed") return;
    const timer = setTimeout(() => navigate("/login"), TOAST_MS.signupRedirect);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (state !== "idle") return;
    if (!check()) return;
    setFormError("");
    setOfferSignIn(false);
    setState("submitting");
    try {
      await signup(phone, password);
      // The code that proves the number goes out at sign-up; the user types it after logging in.
      void sendPhoneCode(phone).catch(() => undefined);
      setState("subscribed");
      toast.success(t("auth.subscribedToast"), TOAST_MS.signup);
    } catch (error) {
      const taken = error instanceof ApiError && error.code === "phone_taken";
      const message = await errorMessageLoaded(error, t("auth.signupFailedFallback"));
      setFormError(message);
      setOfferSignIn(taken);
      toast.error(message, TOAST_MS.error);
      setState("idle");
    }
  }

  const subscribed = state === "subscribed";
  return (
    <AuthCard
      title={t("auth.signupTitle")}
      subtitle={t("auth.signupSubtitle")}
      footer={
        <>
          <AppLink to="/login">{t("auth.haveAccount")}</AppLink>
          <AppLink to="/">{t("nav.home")}</AppLink>
        </>
      }
    >
      <form className="auth-form" onSubmit={(e) => void submit(e)} noValidate>
        {subscribed && (
          <div className="alert alert--success" role="status" data-testid="subscribed-notice">
            {t("auth.subscribedNotice")}
          </div>
        )}
        {formError && (
          <div className="alert alert--error" role="alert">
            {formError}
            {offerSignIn && (
              <>
                {" "}
                <AppLink to="/login">{t("auth.signInInstead")}</AppLink> <ClaimNumberLink phone={phone} password={password} />
              </>
            )}
          </div>
        )}
        <fieldset disabled={subscribed || state === "submitting" || !hydrated}>
          <PhoneField value={phone} onChange={setPhone} error={errors.phone} />
          <PasswordField
            value={password}
            onChange={setPassword}
            error={errors.password}
            label={t("auth.passwordMin6")}
            autoComplete="new-password"
          />
          <button type="submit" className="btn btn--primary btn--block">
            {state === "submitting" ? t("auth.subscribing") : subscribed ? t("auth.subscribed") : t("auth.subscribe")}
          </button>
        </fieldset>
      </form>
    </AuthCard>
  );
}
