import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { phoneLibrary } from "../components/PhoneField/phoneLibrary";

/** First issue per top-level field of a failed zod parse, e.g. { phone: "..." }. */
function fieldIssues(error: z.ZodError): Record<string, z.core.$ZodIssue> {
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
  const [phone, setPhoneValue] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<CredentialErrors>({});

  function check(): boolean {
    const parsed = schema.safeParse({ phone, password });
    // The phone field's own check (libphonenumber, as the API reads numbers) says what is wrong.
    const library = phoneLibrary();
    const schemaWrong = parsed.success || !fieldIssues(parsed.error).phone ? null : phone.trim() ? "notANumber" : "required";
    const phoneWrong = (library ? library.phoneProblem(phone) : null) ?? schemaWrong;
    if (!parsed.success || phoneWrong) {
      const issues = parsed.success ? {} : fieldIssues(parsed.error);
      setErrors({
        ...(phoneWrong ? { phone: t(`auth.phoneProblem.${phoneWrong}`) } : {}),
        ...(issues.password ? { password: passwordText(password) } : {}),
      });
      return false;
    }
    setErrors({});
    return true;
  }

  /** A new number clears the message about the old one (the field checks as it is typed). */
  function setPhone(value: string) {
    setPhoneValue(value);
    setErrors(({ phone: _old, ...rest }) => rest);
  }

  return { phone, setPhone, password, setPassword, errors, check };
}
