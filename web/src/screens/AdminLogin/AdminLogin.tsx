/** SPEC §2 Administrator login: username and password, SPEC §8's messages, /admin-dashboard after 1 s. */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { TOAST_MS } from "@storefront/shared";
import { errorMessage } from "../../api/errors";
import { AppLink } from "../../components/AppLink";
import { AuthCard, PasswordField } from "../../components/AuthCard";
import { useToast } from "../../components/Toasts";
import { adminApi } from "../AdminDashboard/adminApi";
import { storeAdminSession } from "../AdminDashboard/adminSession";

export default function AdminLogin() {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const usernameId = useId();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [success, setSuccess] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);

  // The welcome toast belongs to this screen: it leaves with it, so it never lies over the
  // dashboard's first chart on a phone (the redirect comes 1 s after it, SPEC §2).
  const welcome = useRef<number | null>(null);
  useEffect(
    () => () => {
      clearTimeout(redirect.current);
      if (welcome.current !== null) toast.dismiss(welcome.current);
    },
    [toast],
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    if (!username.trim() || !password) {
      setError(t("admin.login.fillAll"));
      return;
    }
    setError("");
    setSubmitting(true);
    try {
      const res = await adminApi.login(username.trim(), password);
      storeAdminSession(res.admin);
      const message = t("admin.login.success");
      setSuccess(message);
      welcome.current = toast.success(message, TOAST_MS.loginSuccess);
      redirect.current = setTimeout(() => navigate("/admin-dashboard", { replace: true }), TOAST_MS.adminLoginRedirect);
    } catch (caught) {
      // The code's own text: "Login failed. Please check..." once, in the screen's language.
      const message = errorMessage(caught, t("admin.login.failed"));
      setError(message);
      toast.error(message, TOAST_MS.error);
      setSubmitting(false);
    }
  }

  return (
    <AuthCard
      title={t("admin.login.title")}
      subtitle={t("admin.login.subtitle")}
      footer={
        <>
          <AppLink to="/login">{t("admin.login.userLogin")}</AppLink>
          <AppLink to="/">{t("nav.home")}</AppLink>
        </>
      }
    >
      <form className="auth-form" onSubmit={(e) => void submit(e)} noValidate>
        {error && (
          <div className="alert alert--error" role="alert">
            {error}
          </div>
        )}
        {success && (
          <div className="alert alert--success" role="status">
            {success}
          </div>
        )}
        <div className="field">
          <label htmlFor={usernameId}>{t("admin.login.username")}</label>
          <input
            id={usernameId}
            name="username"
            className="input"
            autoComplete="username"
            dir="ltr"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
          />
        </div>
        <PasswordField
          value={password}
          onChange={setPassword}
          label={t("admin.login.password")}
          autoComplete="current-password"
        />
        <button type="submit" className="btn btn--primary btn--block" disabled={submitting}>
          {submitting ? t("admin.login.signingIn") : t("admin.login.signIn")}
        </button>
      </form>
    </AuthCard>
  );
}
