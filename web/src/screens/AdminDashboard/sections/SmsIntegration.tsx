/** SPEC §2 SMS Integration: Configuration tab and Logs & Statistics tab (logs, stats, messages). */
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { Trans, useTranslation } from "react-i18next";
import {
  LIMITS,
  SMS_GATEWAY_FORMATS,
  SMS_LOG_ACTIONS,
  SMS_WEBHOOK_AUTH_MODES,
  type SmsGatewayFormat,
  type SmsWebhookAuth,
} from "@storefront/shared";
import { useToast } from "../../../components/Toasts";
import {
  adminApi,
  type SmsIntegrationConfig,
  type SmsIntegrationForm,
  type SmsLogRow,
  type SmsMessageRow,
  type SmsStats,
} from "../adminApi";
import type { Paged } from "../adminApi";
import { errorText, formatDate, formatNumber, Pager, Panel, Table, useCan, useLoad } from "../ui";

export default function SmsIntegration() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<"config" | "logs">("config");
  return (
    <div className="admin-stack">
      <div className="admin-tabs" role="tablist" aria-label={t("admin.smsIntegration.title")}>
        {(["config", "logs"] as const).map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className={`admin-tab${tab === id ? " is-current" : ""}`}
            onClick={() => setTab(id)}
          >
            {t(id === "config" ? "admin.smsIntegration.tabConfig" : "admin.smsIntegration.tabLogs")}
          </button>
        ))}
      </div>
      <div role="tabpanel">{tab === "config" ? <ConfigTab /> : <LogsTab />}</div>
    </div>
  );
}

const loadConfig = () => adminApi.smsIntegration().then((r) => r.config);

/** The form's copy of the settings: secrets empty (write-only), the allowlist one entry a line. */
function formOf(config: SmsIntegrationConfig): SmsIntegrationForm {
  const {
    webhook_url: _url,
    gateway_password_set: _password,
    webhook_secret_set: _secret,
    webhook_secret_previous_until: _until,
    ...rest
  } = config;
  return { ...rest, webhook_allowed_ips: config.webhook_allowed_ips.join("\n"), gateway_password: "", webhook_secret: "" };
}

function ConfigTab() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const can = useCan();
  const id = useId();
  const { data } = useLoad(loadConfig, t("admin.smsIntegration.loadFailed"));
  const [stored, setStored] = useState<SmsIntegrationConfig | null>(null);
  const [form, setForm] = useState<SmsIntegrationForm | null>(null);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [rotating, setRotating] = useState(false);
  /** A rotated secret, shown until the page is left: the server never answers it again. */
  const [newSecret, setNewSecret] = useState("");
  const [error, setError] = useState("");

  useEffect(() => {
    if (data) {
      setStored(data);
      setForm(formOf(data));
    }
  }, [data]);
  if (!form || !stored) return null;
  const set = <K extends keyof SmsIntegrationForm>(key: K, value: SmsIntegrationForm[K]) => {
    // From the latest state, not this render's: two changes before a render both count.
    setForm((current) => current && { ...current, [key]: value });
    setError("");
  };
  const readOnly = !can("sms:manage");
  // The stored password only goes to the URL it was typed for: a new URL needs it again.
  const passwordAgain = stored.gateway_password_set && form.gateway_url.trim() !== stored.gateway_url && !form.gateway_password;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    const rate = Number(form.rate_limit_per_minute);
    if (!Number.isInteger(rate) || rate < 1 || rate > 100) {
      setError(t("admin.smsIntegration.rateInvalid"));
      return;
    }
    if (passwordAgain) {
      setError(t("admin.smsIntegration.passwordAgain"));
      return;
    }
    setError("");
    setSaving(true);
    try {
      const res = await adminApi.saveSmsIntegration({ ...form, rate_limit_per_minute: rate });
      setStored(res.config);
      setForm(formOf(res.config));
      toast.success(t("admin.smsIntegration.saved"));
    } catch (caught) {
      const server = errorText(caught, "");
      if (server) setError(server);
      toast.error(server ? t("admin.smsIntegration.saveFailed") : t("admin.smsIntegration.saveFailedShort"));
    }
    setSaving(false);
  }

  async function test() {
    if (!form) return;
    if (passwordAgain) {
      setError(t("admin.smsIntegration.passwordAgain"));
      return;
    }
    setTesting(true);
    try {
      const res = await adminApi.testSmsGateway({
        gateway_url: form.gateway_url.trim(),
        gateway_format: form.gateway_format,
        gateway_username: form.gateway_username,
        gateway_password: form.gateway_password,
      });
      if (res.test_result?.success) toast.success(t("admin.smsIntegration.testOk"));
      else
        toast.error(
          t("admin.smsIntegration.testFailed", {
            error: res.test_result?.error ?? res.error ?? t("admin.smsIntegration.unknownError"),
          }),
        );
    } catch (caught) {
      const server = errorText(caught, "");
      toast.error(server ? t("admin.smsIntegration.testFailed", { error: server }) : t("admin.smsIntegration.testError"));
    }
    setTesting(false);
  }

  async function rotate() {
    setRotating(true);
    try {
      const res = await adminApi.rotateWebhookSecret();
      setNewSecret(res.webhook_secret);
      setStored(res.config);
    } catch (caught) {
      toast.error(errorText(caught, t("admin.smsIntegration.rotateFailed")));
    }
    setRotating(false);
  }

  const isSet = (value: boolean) => (
    <span className={`admin-badge ${value ? "admin-badge--ok" : "admin-badge--off"}`}>
      {value ? t("admin.smsIntegration.isSet") : t("admin.smsIntegration.notSet")}
    </span>
  );

  const text = (key: "gateway_url" | "sender_id" | "gateway_username" | "webhook_username", type = "text") => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{t(`admin.smsIntegration.${key}`)}</label>
      <input
        id={`${id}-${key}`}
        className="input"
        dir="ltr"
        type={type}
        value={form[key]}
        disabled={readOnly}
        onChange={(e) => set(key, e.target.value)}
      />
    </div>
  );

  /** A write-only secret: shows whether one is stored; typing replaces it, empty keeps it. */
  const secret = (key: "gateway_password" | "webhook_secret", stored: boolean, hint?: string) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>
        {t(`admin.smsIntegration.${key}`)} {isSet(stored)}
      </label>
      <input
        id={`${id}-${key}`}
        className="input"
        dir="ltr"
        type="password"
        autoComplete="new-password"
        value={form[key]}
        placeholder={stored ? t("admin.smsIntegration.keepPlaceholder") : ""}
        disabled={readOnly}
        aria-invalid={hint ? true : undefined}
        onChange={(e) => set(key, e.target.value)}
      />
      {hint && <span className="field-error">{hint}</span>}
    </div>
  );

  const previousUntil = stored.webhook_secret_previous_until
    ? formatDate(stored.webhook_secret_previous_until, i18n.language)
    : null;

  return (
    <Panel title={t("admin.smsIntegration.tabConfig")}>
      <form className="admin-form" onSubmit={(e) => void save(e)} noValidate data-testid="sms-integration-form">
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
        <label className="admin-check">
          <input type="checkbox" checked={form.enabled} disabled={readOnly} onChange={(e) => set("enabled", e.target.checked)} />
          {t("admin.smsIntegration.enabled")}
        </label>
        <div className="admin-form-grid">
          {text("gateway_url", "url")}
          <div className="field">
            <label htmlFor={`${id}-format`}>{t("admin.smsIntegration.gateway_format")}</label>
            <select
              id={`${id}-format`}
              className="select"
              value={form.gateway_format}
              disabled={readOnly}
              onChange={(e) => set("gateway_format", e.target.value as SmsGatewayFormat)}
            >
              {SMS_GATEWAY_FORMATS.map((format) => (
                <option key={format} value={format}>
                  {t(`admin.smsIntegration.format_${format}`)}
                </option>
              ))}
            </select>
          </div>
          {text("sender_id")}
          {text("gateway_username")}
          {secret(
            "gateway_password",
            stored.gateway_password_set,
            passwordAgain ? t("admin.smsIntegration.passwordAgain") : undefined,
          )}
          <div className="field">
            <label htmlFor={`${id}-rate`}>{t("admin.smsIntegration.rate_limit_per_minute")}</label>
            <input
              id={`${id}-rate`}
              className="input"
              type="number"
              min={1}
              max={100}
              value={form.rate_limit_per_minute}
              disabled={readOnly}
              onChange={(e) => set("rate_limit_per_minute", e.target.value)}
            />
          </div>
        </div>
        <label className="admin-check">
          <input
            type="checkbox"
            checked={form.auto_reply_enabled}
            disabled={readOnly}
            onChange={(e) => set("auto_reply_enabled", e.target.checked)}
          />
          {t("admin.smsIntegration.auto_reply_enabled")}
        </label>
        {(["welcome_message", "insufficient_funds_message"] as const).map((key) => (
          <div className="field" key={key}>
            <label htmlFor={`${id}-${key}`}>{t(`admin.smsIntegration.${key}`)}</label>
            <textarea
              id={`${id}-${key}`}
              className="input"
              rows={2}
              dir="auto"
              maxLength={LIMITS.smsCharsEnglish}
              value={form[key]}
              disabled={readOnly}
              onChange={(e) => set(key, e.target.value)}
            />
          </div>
        ))}

        <fieldset className="admin-fieldset" data-testid="sms-webhook-settings">
          <legend>{t("admin.smsIntegration.webhookSection")}</legend>
          <div className="field">
            <label htmlFor={`${id}-webhook`}>{t("admin.smsIntegration.webhookUrl")}</label>
            {/* A read-only box that wraps, so the whole URL shows on a phone too. */}
            <textarea
              id={`${id}-webhook`}
              className="textarea admin-url"
              dir="ltr"
              readOnly
              rows={2}
              value={stored.webhook_url}
            />
            <span className="field-hint">{t("admin.smsIntegration.webhookHint")}</span>
          </div>
          <div className="admin-form-grid">
            <div className="field">
              <label htmlFor={`${id}-auth`}>{t("admin.smsIntegration.webhook_auth")}</label>
              <select
                id={`${id}-auth`}
                className="select"
                value={form.webhook_auth}
                disabled={readOnly}
                onChange={(e) => set("webhook_auth", e.target.value as SmsWebhookAuth)}
              >
                {SMS_WEBHOOK_AUTH_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {t(`admin.smsIntegration.auth_${mode}`)}
                  </option>
                ))}
              </select>
            </div>
            {form.webhook_auth === "basic" && text("webhook_username")}
            {secret("webhook_secret", stored.webhook_secret_set)}
          </div>
          {!readOnly && (
            <div className="admin-rotate">
              <button type="button" className="btn btn--secondary" onClick={() => void rotate()} disabled={rotating}>
                {rotating ? t("admin.smsIntegration.rotating") : t("admin.smsIntegration.rotate")}
              </button>
              {previousUntil && (
                <span className="field-hint">{t("admin.smsIntegration.previousUntil", { time: previousUntil })}</span>
              )}
            </div>
          )}
          {newSecret && (
            <div className="alert alert--warning" role="status" data-testid="sms-new-secret">
              <p>{t("admin.smsIntegration.newSecretOnce")}</p>
              <input
                className="input"
                dir="ltr"
                readOnly
                value={newSecret}
                aria-label={t("admin.smsIntegration.webhook_secret")}
                onFocus={(e) => e.target.select()}
              />
            </div>
          )}
          <div className="field">
            <label htmlFor={`${id}-ips`}>{t("admin.smsIntegration.webhook_allowed_ips")}</label>
            <textarea
              id={`${id}-ips`}
              className="input"
              dir="ltr"
              rows={2}
              value={form.webhook_allowed_ips}
              placeholder="203.0.113.10&#10;198.51.100.0/24"
              disabled={readOnly}
              onChange={(e) => set("webhook_allowed_ips", e.target.value)}
            />
            <span className="field-hint">{t("admin.smsIntegration.allowedIpsHint")}</span>
          </div>
          <label className="admin-check">
            <input
              type="checkbox"
              checked={form.webhook_query_token}
              disabled={readOnly}
              onChange={(e) => set("webhook_query_token", e.target.checked)}
            />
            <span>
              <Trans
                i18nKey="admin.smsIntegration.webhook_query_token"
                components={{ code: <code dir="ltr" translate="no" /> }}
              />
            </span>
          </label>
        </fieldset>
        {!readOnly && (
          <div className="dialog__actions">
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => void test()}
              disabled={testing || !form.gateway_url.trim()}
            >
              {testing ? t("admin.smsIntegration.testing") : t("admin.smsIntegration.test")}
            </button>
            <button type="submit" className="btn btn--primary" disabled={saving}>
              {saving ? t("admin.common.saving") : t("admin.smsIntegration.save")}
            </button>
          </div>
        )}
      </form>
    </Panel>
  );
}

type View = "logs" | "stats" | "messages";

interface Filters {
  log_action: string;
  direction: string;
  user_id: string;
  date_from: string;
  date_to: string;
}

const NO_FILTERS: Filters = { log_action: "", direction: "", user_id: "", date_from: "", date_to: "" };

function LogsTab() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [view, setView] = useState<View>("logs");
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // The answer is tagged with its view: while the next view loads, the last answer is not drawn as the new one.
  const load = useCallback(
    () =>
      adminApi
        .smsLogs<unknown>({
          action: view,
          page,
          limit: LIMITS.adminPageSize,
          log_action: view === "logs" ? filters.log_action : undefined,
          direction: view === "messages" ? filters.direction : undefined,
          user_id: filters.user_id.trim() || undefined,
          date_from: filters.date_from || undefined,
          date_to: filters.date_to || undefined,
        })
        .then((res) => ({ view, data: res.data })),
    [view, page, filters],
  );
  const { data } = useLoad(load, t("admin.smsIntegration.dataFailed"), `${view}:${page}:${JSON.stringify(filters)}`);
  const n = (value: number) => formatNumber(value, i18n.language);

  /** SPEC §2: changing a filter resets the page to 1. */
  const filter = (key: keyof Filters, value: string) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setPage(1);
  };

  const payload = data?.view === view ? data.data : null;
  return (
    <Panel title={t("admin.smsIntegration.tabLogs")}>
      <div className="admin-tabs admin-tabs--small" role="tablist">
        {(["logs", "stats", "messages"] as const).map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={view === v}
            className={`admin-tab${view === v ? " is-current" : ""}`}
            onClick={() => {
              setView(v);
              setPage(1);
            }}
          >
            {t(`admin.smsIntegration.${v}`)}
          </button>
        ))}
      </div>
      <div className="admin-filters">
        {view === "logs" && (
          <div className="field">
            <label htmlFor={`${id}-action`}>{t("admin.smsIntegration.filterAction")}</label>
            <select
              id={`${id}-action`}
              className="select"
              value={filters.log_action}
              onChange={(e) => filter("log_action", e.target.value)}
            >
              <option value="">{t("admin.smsIntegration.all")}</option>
              {SMS_LOG_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
        )}
        {view === "messages" && (
          <div className="field">
            <label htmlFor={`${id}-direction`}>{t("admin.smsIntegration.direction")}</label>
            <select
              id={`${id}-direction`}
              className="select"
              value={filters.direction}
              onChange={(e) => filter("direction", e.target.value)}
            >
              <option value="">{t("admin.smsIntegration.all")}</option>
              <option value="inbound">{t("admin.smsIntegration.inbound")}</option>
              <option value="outbound">{t("admin.smsIntegration.outbound")}</option>
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-user`}>{t("admin.smsIntegration.userId")}</label>
          <input
            id={`${id}-user`}
            className="input"
            dir="ltr"
            value={filters.user_id}
            onChange={(e) => filter("user_id", e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-from`}>{t("admin.smsIntegration.from")}</label>
          <input
            id={`${id}-from`}
            className="input"
            type="date"
            value={filters.date_from}
            onChange={(e) => filter("date_from", e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>{t("admin.smsIntegration.to")}</label>
          <input
            id={`${id}-to`}
            className="input"
            type="date"
            value={filters.date_to}
            onChange={(e) => filter("date_to", e.target.value)}
          />
        </div>
      </div>

      {view === "logs" && payload ? <LogsTable data={payload as { logs: SmsLogRow[] } & Paged} onPage={setPage} /> : null}
      {view === "messages" && payload ? (
        <MessagesTable data={payload as { messages: SmsMessageRow[] } & Paged} onPage={setPage} />
      ) : null}
      {view === "stats" && payload ? <StatsView stats={payload as SmsStats} n={n} /> : null}
    </Panel>
  );
}

function prettyDetails(details: string): string {
  try {
    return JSON.stringify(JSON.parse(details), null, 2);
  } catch {
    return details;
  }
}

function LogsTable({ data, onPage }: { data: { logs: SmsLogRow[] } & Paged; onPage(page: number): void }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <p className="admin-muted">{t("admin.smsIntegration.total", { count: data.total })}</p>
      <Table
        testId="sms-logs-table"
        headers={[
          t("admin.smsIntegration.date"),
          t("admin.smsIntegration.filterAction"),
          t("admin.smsIntegration.user"),
          t("admin.users.phone"),
          t("admin.smsIntegration.details"),
        ]}
        rows={data.logs}
        empty={t("admin.smsIntegration.noLogs")}
      >
        {(log) => (
          <tr key={log.id}>
            <td>{formatDate(log.created_at, i18n.language)}</td>
            <td translate="no">{log.action}</td>
            <td dir="auto">{log.user_name}</td>
            <td dir="ltr">{log.phone}</td>
            <td>
              <pre className="admin-pre" dir="ltr">
                {prettyDetails(log.details)}
              </pre>
            </td>
          </tr>
        )}
      </Table>
      <Pager page={data.page} pages={data.total_pages} onPage={onPage} />
    </>
  );
}

function MessagesTable({ data, onPage }: { data: { messages: SmsMessageRow[] } & Paged; onPage(page: number): void }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <p className="admin-muted">{t("admin.smsIntegration.total", { count: data.total })}</p>
      <Table
        testId="sms-messages-table"
        headers={[
          t("admin.smsIntegration.date"),
          t("admin.smsIntegration.direction"),
          t("admin.smsIntegration.user"),
          t("admin.users.phone"),
          t("admin.smsIntegration.message"),
          t("admin.smsIntegration.gatewayResponse"),
        ]}
        rows={data.messages}
        empty={t("admin.smsIntegration.noMessages")}
      >
        {(m) => (
          <tr key={m.id}>
            <td>{formatDate(m.created_at, i18n.language)}</td>
            <td>{t(`admin.smsIntegration.${m.direction}`)}</td>
            <td dir="auto">{m.user_name}</td>
            <td dir="ltr">{m.phone}</td>
            <td dir="auto">{m.message}</td>
            <td className="admin-break" translate="no">
              {m.gateway_response}
            </td>
          </tr>
        )}
      </Table>
      <Pager page={data.page} pages={data.total_pages} onPage={onPage} />
    </>
  );
}

function StatsView({ stats, n }: { stats: SmsStats; n(value: number): string }) {
  const { t } = useTranslation();
  const basic = stats.basic_stats;
  if (!basic || (basic.total_logs === 0 && stats.top_users.length === 0)) {
    return <p className="empty-state">{t("admin.smsIntegration.noStats")}</p>;
  }
  return (
    <>
      <div className="admin-cards">
        {(["total_logs", "replies_sent", "unique_users", "unknown_users"] as const).map((key) => (
          <div key={key} className="card admin-stat">
            <span className="admin-stat__label">{t(`admin.smsIntegration.${key}`)}</span>
            <strong className="admin-stat__value">{n(basic[key])}</strong>
          </div>
        ))}
      </div>
      <h3 className="admin-subtitle">{t("admin.smsIntegration.topUsers")}</h3>
      <Table
        headers={[
          t("admin.smsIntegration.name"),
          t("admin.users.phone"),
          t("admin.smsIntegration.totalSms"),
          t("admin.smsIntegration.repliesReceived"),
        ]}
        rows={stats.top_users}
      >
        {(u) => (
          <tr key={u.phone}>
            <td dir="auto">{u.name}</td>
            <td dir="ltr">{u.phone}</td>
            <td>{n(u.total_sms)}</td>
            <td>{n(u.replies_received)}</td>
          </tr>
        )}
      </Table>
    </>
  );
}
