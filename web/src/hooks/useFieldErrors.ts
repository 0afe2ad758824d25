import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";

/** First issue per top-level field of a failed zod parse, e.g. { phone: "..." }. */
export function fieldIssues(error: z.ZodError): Record<string, z.core.$ZodIssue> {
  const out: Record<string, z.core.$ZodIssue> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    if (!(field in out)) out[field] = issue;
  }
  return out;
}

export interface CredentialErrors {
  phone?: string;
  password?: string;
}

/**
 * The phone and password of the login and signup forms. `check()` validates them with the
 * request's schema and shows the SPEC §8 field texts; `passwordText` names the password's.
 */
export function useCredentials(
  schema: z.ZodType,
  passwordText: (password: string) => string,
): {
  phone: string;
  setPhone(phone: string): void;
  password: string;
  setPassword(password: string): void;
  errors: CredentialErrors;
  check(): boolean;
} {
  const { t } = useTranslation();
  const [phone, setPhone] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<CredentialErrors>({});

  function check(): boolean {
    const parsed = schema.safeParse({ phone, password });
    if (!parsed.success) {
      const issues = fieldIssues(parsed.error);
      setErrors({
        ...(issues.phone ? { phone: phone.trim() ? t("auth.phoneInvalid") : t("auth.phoneRequired") } : {}),
        ...(issues.password ? { password: passwordText(password) } : {}),
      });
      return false;
    }
    setErrors({});
    return true;
  }

  return { phone, setPhone, password, setPassword, errors, check };
}
