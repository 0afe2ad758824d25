/**
 * The code step of proving a phone number: the number (typed when the account must prove another),
 * the 6 digits of the SMS, and a resend button counting down to when the server allows another
 * code. Errors show at their field (the server names `phone` or `code`); a 429 says when to retry.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { PhoneCodeResponse, SessionUser } from "@storefront/shared";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { resendWait } from "../../api/phone";
import { PhoneField } from "../../components/PhoneField/PhoneField";
import { phoneLibrary } from "../../components/PhoneField/phoneLibrary";

/** A text with the number in it, the number kept left to right inside a sentence of either direction. */
function WithPhone({ text, phone }: { text: (phone: string) => string; phone: string }) {
  const [before = "", after = ""] = text("\u0000").split("\u0000");
  return (
    <>
      {before}
      <bdi dir="ltr">{phone}</bdi>
      {after}
    </>
  );
}

interface Props {
  phone: string;
  /** The account proves a number it types (its own was taken back by its owner). */
  editablePhone?: boolean;
  send(phone: string): Promise<PhoneCodeResponse>;
  verify(code: string, phone: string): Promise<SessionUser>;
  onVerified(user: SessionUser): void;
}

/** A refusal of the server (shown in the language of the moment), or the key of a text of ours. */
type Shown = unknown;
type Errors = { phone?: Shown; code?: Shown };

export function PhoneCodeForm({ phone: initialPhone, editablePhone = false, send, verify, onVerified }: Props) {
  const { t } = useTranslation();
  const codeId = useId();
  const [phone, setPhone] = useState(initialPhone);
  const [code, setCode] = useState("");
  const [wait, setWait] = useState(() => (initialPhone ? resendWait(initialPhone) : 0));
  const [sentTo, setSentTo] = useState(() => (initialPhone && resendWait(initialPhone) > 0 ? initialPhone : ""));
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<Shown>(null);
  const [busy, setBusy] = useState<"sending" | "verifying" | null>(null);
  const [minutes, setMinutes] = useState(10);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const textOf = (shown: Shown) => (typeof shown === "string" ? t(shown) : errorMessage(shown, t("errors.codes.internal")));

  /** The server's refusal, at the field it names, else above the form. */
  function show(error: unknown) {
    const field = error instanceof ApiError ? error.body.field : undefined;
    if (field === "phone" || field === "code") setErrors({ [field]: error });
    else setFormError(error);
    if (error instanceof ApiError && error.status === 429 && typeof error.body.retryAfter === "number") {
      setWait(error.body.retryAfter);
    }
  }

  async function sendCode() {
    if (busy || wait > 0) return;
    setErrors({});
    setFormError(null);
    // A number the account types is checked as the phone field checks it (libphonenumber, as the API reads it).
    const problem = editablePhone ? (phone.trim() ? (phoneLibrary()?.phoneProblem(phone) ?? null) : "required") : null;
    if (problem) {
      setErrors({ phone: `auth.phoneProblem.${problem}` });
      return;
    }
    setBusy("sending");
    try {
      const sent = await send(phone);
      setSentTo(sent.phone);
      setWait(sent.resendIn);
      setMinutes(Math.round(sent.expiresIn / 60));
    } catch (error) {
      show(error);
    } finally {
      setBusy(null);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setErrors({});
    setFormError(null);
    if (!/^\d{6}$/u.test(code.trim())) {
      setErrors({ code: "verifyPhone.codeFormat" });
      return;
    }
    setBusy("verifying");
    try {
      onVerified(await verify(code, phone));
    } catch (error) {
      show(error);
      setBusy(null);
    }
  }

  return (
    <form className="auth-form verify-phone" onSubmit={(e) => void submit(e)} noValidate data-testid="verify-phone-form">
      {formError !== null && (
        <div className="alert alert--error" role="alert">
          {textOf(formError)}
        </div>
      )}
      {sentTo && formError === null && (
        <div className="alert alert--success" role="status" data-testid="code-sent">
          <WithPhone text={(shown) => t("verifyPhone.sent", { phone: shown, minutes })} phone={sentTo} />
        </div>
      )}
      {!editablePhone && !sentTo && (
        <p className="verify-phone__number">
          {t("verifyPhone.profileLabel")}: <bdi dir="ltr">{phone}</bdi>
        </p>
      )}
      {editablePhone && (
        <PhoneField
          label={t("verifyPhone.phoneLabel")}
          value={phone}
          onChange={(value) => {
            setPhone(value);
            // A new number clears the message about the old one (the field checks as it is typed).
            setErrors(({ phone: _old, ...rest }) => rest);
          }}
          error={errors.phone !== undefined ? textOf(errors.phone) : undefined}
        />
      )}
      {!editablePhone && errors.phone !== undefined && (
        <div className="alert alert--error" role="alert">
          {textOf(errors.phone)}
        </div>
      )}
      <div className="field">
        <label htmlFor={codeId}>{t("verifyPhone.codeLabel")}</label>
        <input
          id={codeId}
          name="code"
          className="input verify-phone__code"
          inputMode="numeric"
          autoComplete="one-time-code"
          dir="ltr"
          maxLength={6}
          placeholder={t("verifyPhone.codePlaceholder")}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/gu, ""))}
          aria-invalid={errors.code !== undefined ? true : undefined}
          aria-describedby={errors.code !== undefined ? `${codeId}-error` : undefined}
        />
        {errors.code !== undefined && (
          <span id={`${codeId}-error`} className="field-error">
            {textOf(errors.code)}
          </span>
        )}
      </div>
      <button type="submit" className="btn btn--primary btn--block" disabled={busy !== null}>
        {busy === "verifying" ? t("verifyPhone.verifying") : t("verifyPhone.verify")}
      </button>
      <button
        type="button"
        className="btn btn--secondary btn--block"
        onClick={() => void sendCode()}
        disabled={busy !== null || wait > 0}
        data-testid="send-code"
      >
        {busy === "sending"
          ? t("verifyPhone.sending")
          : wait > 0
            ? t("verifyPhone.resendIn", { seconds: wait })
            : sentTo
              ? t("verifyPhone.resend")
              : t("verifyPhone.send")}
      </button>
    </form>
  );
}
