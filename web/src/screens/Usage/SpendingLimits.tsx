/**
 * The subscriber's own spending limits on My usage: what was spent today against the daily cap
 * (theirs, their tier's default, or none), when the day starts again, the low-balance alert's
 * threshold and whether it also comes by SMS. Empty fields put a setting back to its default.
 */
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { WalletSettingsResponse } from "@storefront/shared";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { saveWalletSettings, walletSettings } from "../../api/history";
import { Switch } from "../../components/Switch";
import { useToast } from "../../components/Toasts";
import { useFormat } from "../../hooks/useFormat";

const KEY = ["wallet-settings"];
type Field = "dailyCap" | "lowBalanceThreshold";

/** "" is "no setting of my own" (null); anything else must be a whole number in range. */
function parseField(value: string, min: number): number | null | undefined {
  const clean = value.trim();
  if (clean === "") return null;
  if (!/^\d{1,7}$/u.test(clean)) return undefined;
  const n = Number(clean);
  return n >= min && n <= 1_000_000 ? n : undefined;
}

export function SpendingLimits() {
  const { t } = useTranslation();
  const toast = useToast();
  const format = useFormat();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: KEY, queryFn: walletSettings });
  const [cap, setCap] = useState("");
  const [threshold, setThreshold] = useState("");
  const [smsAlerts, setSmsAlerts] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);

  const data = settings.data;
  useEffect(() => {
    if (!data) return;
    setCap(data.settings.dailyCap === null ? "" : String(data.settings.dailyCap));
    setThreshold(data.settings.lowBalanceThreshold === null ? "" : String(data.settings.lowBalanceThreshold));
    setSmsAlerts(data.settings.smsAlerts);
  }, [data]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const dailyCap = parseField(cap, 1);
    const lowBalanceThreshold = parseField(threshold, 0);
    const problems: Partial<Record<Field, string>> = {};
    if (dailyCap === undefined) problems.dailyCap = t("usage.limits.capInvalid");
    if (lowBalanceThreshold === undefined) problems.lowBalanceThreshold = t("usage.limits.thresholdInvalid");
    setErrors(problems);
    if (dailyCap === undefined || lowBalanceThreshold === undefined) return;
    setBusy(true);
    try {
      const saved = await saveWalletSettings({ dailyCap, lowBalanceThreshold, smsAlerts });
      queryClient.setQueryData<WalletSettingsResponse>(KEY, saved);
      toast.success(t("usage.limits.saved"));
    } catch (caught) {
      const field = caught instanceof ApiError ? caught.body.field : undefined;
      const text = errorMessage(caught, t("usage.limits.saveFailed"));
      if (field === "dailyCap" || field === "lowBalanceThreshold") setErrors({ [field]: text });
      else toast.error(text);
    } finally {
      setBusy(false);
    }
  }

  if (settings.isError) {
    return (
      <p className="alert alert--error" role="alert">
        {t("usage.limits.loadFailed")}
      </p>
    );
  }
  if (!data) return null;
  const { effective } = data;
  const spent = format.number(effective.spentToday);
  const percent = effective.dailyCap ? Math.min(100, Math.round((effective.spentToday / effective.dailyCap) * 100)) : 0;

  return (
    <form
      className="card usage-limits"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="usage-limits-title"
      data-testid="spending-limits"
    >
      <h2 id="usage-limits-title" className="usage-limits__title">
        {t("usage.limits.title")}
      </h2>
      <p className="usage-limits__today" data-testid="spent-today">
        {effective.dailyCap === null
          ? t("usage.limits.spentNoCap", { spent })
          : t("usage.limits.spentOfCap", { spent, cap: format.number(effective.dailyCap) })}{" "}
        <span className="field-hint">{t("usage.limits.resets", { time: format.time(effective.resetsAt) })}</span>
      </p>
      {effective.dailyCap !== null && (
        <div
          className="usage-limits__meter"
          role="meter"
          aria-valuemin={0}
          aria-valuemax={effective.dailyCap}
          aria-valuenow={Math.min(effective.spentToday, effective.dailyCap)}
          aria-label={t("usage.limits.meter")}
        >
          <span style={{ inlineSize: `${percent}%` }} />
        </div>
      )}
      <div className="usage-limits__fields">
        <LimitField
          id="limits-cap"
          label={t("usage.limits.cap")}
          value={cap}
          onChange={setCap}
          placeholder={t("usage.limits.none")}
          error={errors.dailyCap}
          hint={
            effective.dailyCapSource === "tier" && data.settings.dailyCap === null
              ? t("usage.limits.capTierDefault", { cap: format.number(effective.dailyCap ?? 0) })
              : t("usage.limits.capHint")
          }
        />
        <LimitField
          id="limits-threshold"
          label={t("usage.limits.threshold")}
          value={threshold}
          onChange={setThreshold}
          placeholder={format.number(effective.lowBalanceThreshold)}
          error={errors.lowBalanceThreshold}
          hint={t("usage.limits.thresholdHint")}
        />
      </div>
      <div className="usage-limits__sms">
        <Switch
          checked={smsAlerts}
          onChange={setSmsAlerts}
          label={t("usage.limits.smsAlerts")}
          describedBy="limits-sms-hint"
          testId="limits-sms"
        />
        <p id="limits-sms-hint" className="field-hint">
          {t("usage.limits.smsAlertsHint")}
        </p>
      </div>
      <button type="submit" className="btn btn--primary usage-limits__save" disabled={busy}>
        {busy ? t("usage.limits.saving") : t("usage.limits.save")}
      </button>
    </form>
  );
}

interface LimitFieldProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder: string;
  /** Shown instead of the hint, and marks the field invalid. */
  error: string | undefined;
  hint: string;
}

/** A whole-number field in coins with its hint, or its error in the hint's place. */
function LimitField({ id, label, value, onChange, placeholder, error, hint }: LimitFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        inputMode="numeric"
        dir="ltr"
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint`}
      />
      <span id={`${id}-hint`} className={error ? "field-error" : "field-hint"}>
        {error ?? hint}
      </span>
    </div>
  );
}
