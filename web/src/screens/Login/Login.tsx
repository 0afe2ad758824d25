/** SPEC §2 Login: phone and password (show/hide), "Signing in...", 3 s welcome toast, then /dashboard. */
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router-dom";
import { AppLink } from "../../components/AppLink";
import { loginRequestSchema, TOAST_MS } from "@storefront/shared";
import { errorMessageLoaded } from "../../api/errors";
import { AuthCard, PasswordField } from "../../components/AuthCard";
import { PhoneField } from "../../components/PhoneField/PhoneField";
import { useToast } from "../../components/Toasts";
import { takeAttemptedUrl, useAuth } from "../../hooks/useAuth";
import { useCredentials } from "../../hooks/useFieldErrors";
import { useHydrated } from "../../hooks/useHydrated";
import { safeReturnPath } from "../../lib/returnPath";

export default function Login() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { phone, setPhone, password, setPassword, errors, check } = useCredentials(loginRequestSchema, () =>
    t("auth.passwordRequired"),
  );
  const [formError, setFormError] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const hydrated = useHydrated();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    if (!check()) return;
    setFormError("");
    setSubmitting(true);
    try {
      await login(phone, password);
      toast.success(t("auth.welcome"), TOAST_MS.loginSuccess);
      // The page the visitor wanted (?next= from Access Denied, else the one a guard remembered).
      const remembered = takeAttemptedUrl("/dashboard");
      navigate(safeReturnPath(params.get("next")) ?? remembered, { replace: true });
    } catch (error) {
      const message = await errorMessageLoaded(error, t("auth.loginFailedFallback"));
      setFormError(message);
      toast.error(message, TOAST_MS.error);
      setSubmitting(false);
    }
  }

  return (
    <AuthCard
      title={t("auth.loginTitle")}
      subtitle={t("auth.loginSubtitle")}
      footer={
        <>
          <AppLink to="/signup">{t("auth.noAccount")}</AppLink>
          <AppLink to="/">{t("nav.home")}</AppLink>
        </>
      }
    >
      <form className="auth-form" onSubmit={(e) => void submit(e)} noValidate>
        {formError && (
          <div className="alert alert--error" role="alert">
            {formError}
          </div>
        )}
        {/* Off until the script has the form (useHydrated). */}
        <fieldset disabled={!hydrated}>
          <PhoneField value={phone} onChange={setPhone} error={errors.phone} />
          <PasswordField
            value={password}
            onChange={setPassword}
            error={errors.password}
            label={t("auth.password")}
            autoComplete="current-password"
          />
          <button type="submit" className="btn btn--primary btn--block" disabled={submitting}>
            {submitting ? t("auth.signingIn") : t("auth.signIn")}
          </button>
        </fieldset>
      </form>
    </AuthCard>
  );
}
