/**
 * Password change (POST user/change-password.php {currentPassword, newPassword}): the server ends
 * the user's other sessions. A wrong current password is a 400 naming `currentPassword` (401 from
 * older servers), 429 = too many tries; every text shown is the web's own translation.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { PASSWORD_MIN, type changePasswordRequestSchema } from "@storefront/shared";
import { errorMessage } from "../../api/errors";
import { ApiError, post } from "../../api/client";
import { useToast } from "../../components/Toasts";

type Field = "currentPassword" | "newPassword";

export function ChangePassword() {
  const { t } = useTranslation();
  const toast = useToast();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);

  function check(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    if (!current) found.currentPassword = t("profile.password.currentRequired");
    if (next.length < PASSWORD_MIN) found.newPassword = t("profile.password.tooShort", { n: PASSWORD_MIN });
    else if (next === current) found.newPassword = t("profile.password.same");
    return found;
  }

  async function submit() {
    if (saving) return;
    const found = check();
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      await post("user/change-password.php", {
        currentPassword: current,
        newPassword: next,
      } satisfies z.input<typeof changePasswordRequestSchema>);
      setCurrent("");
      setNext("");
      toast.success(t("profile.password.changed"));
    } catch (error) {
      if (!(error instanceof ApiError)) toast.error(t("profile.password.failed"));
      else if (error.status === 429) toast.error(errorMessage(error, t("profile.password.tooMany")));
      // The server names the field (400) or refuses the current password (401); the texts are ours.
      else if (error.status === 401 || error.body.field === "currentPassword")
        setErrors({ currentPassword: t("profile.password.wrongCurrent") });
      else if (error.status === 400) setErrors({ newPassword: t("profile.password.tooShort", { n: PASSWORD_MIN }) });
      else toast.error(t("profile.password.failed"));
    } finally {
      setSaving(false);
    }
  }

  // A fixed field loses its error at once, not on the next submit.
  const edit = (field: Field, value: string, set: (v: string) => void) => {
    set(value);
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  return (
    <form
      className="card profile-card"
      aria-labelledby="password-title"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      noValidate
      data-testid="change-password"
    >
      <h2 id="password-title" className="profile-card__title">
        {t("profile.password.title")}
      </h2>
      <p className="field-hint">{t("profile.password.hint")}</p>
      {(
        [
          ["currentPassword", current, setCurrent, "current-password"],
          ["newPassword", next, setNext, "new-password"],
        ] as const
      ).map(([field, value, set, autoComplete]) => (
        <div className="field" key={field}>
          <label htmlFor={`profile-${field}`}>{t(`profile.password.${field}`)}</label>
          <input
            id={`profile-${field}`}
            className="input"
            type="password"
            autoComplete={autoComplete}
            value={value}
            onChange={(e) => edit(field, e.target.value, set)}
            aria-invalid={errors[field] ? true : undefined}
            aria-describedby={errors[field] ? `profile-${field}-error` : undefined}
            dir="ltr"
          />
          {errors[field] && (
            <span id={`profile-${field}-error`} className="field-error">
              {errors[field]}
            </span>
          )}
        </div>
      ))}
      <button type="submit" className="btn btn--primary btn--block" disabled={saving}>
        {saving ? t("profile.password.saving") : t("profile.password.submit")}
      </button>
    </form>
  );
}
