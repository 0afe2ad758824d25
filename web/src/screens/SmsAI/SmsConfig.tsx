/**
 * The configuration panel: backend/local toggle, sender id, recipient, the message with its
 * 400 / 210 character limit and counter, Send and Clear.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { smsCharLimit } from "@storefront/shared";
import { ErrorAlert, Form, InputField, TextAreaField } from "../../components/Form";
import { Switch } from "../../components/Switch";
import { useUser } from "../../hooks/useAuth";
import { useFormat } from "../../hooks/useFormat";
import type { SmsConversation } from "./useSmsConversation";

export function SmsConfig({ conversation }: { conversation: SmsConversation }) {
  const { t } = useTranslation();
  const user = useUser();
  const format = useFormat();
  const [sender, setSender] = useState("AIStore");
  const [recipient, setRecipient] = useState(user.phone);
  const [text, setText] = useState("");
  const limit = smsCharLimit(format.language);
  const length = Array.from(text).length;
  const { useBackend, sending } = conversation;

  async function send() {
    if (await conversation.send({ sender, recipient, text })) setText("");
  }

  return (
    <Form className="card sms-config" onSubmit={send}>
      <h2>{t("sms.config")}</h2>
      <Switch
        checked={useBackend}
        onChange={conversation.setUseBackend}
        label={t("sms.useBackend")}
        describedBy="sms-backend-hint"
      />
      <p id="sms-backend-hint" className="field-hint" data-testid="sms-backend-hint">
        {useBackend ? t("sms.useBackendHintOn") : t("sms.useBackendHint")}
      </p>
      <InputField id="sms-sender" label={t("sms.senderId")} value={sender} onChange={setSender} dir="ltr" />
      <InputField
        id="sms-recipient"
        label={t("sms.recipient")}
        type="tel"
        dir="ltr"
        value={recipient}
        onChange={setRecipient}
        required
      />
      <TextAreaField
        id="sms-message"
        label={t("sms.message")}
        value={text}
        placeholder={t("sms.messagePlaceholder")}
        onChange={setText}
        aria-invalid={length > limit || undefined}
        aria-describedby="sms-counter"
        required
      >
        <span id="sms-counter" className={length > limit ? "field-error" : "field-hint"} data-testid="sms-counter">
          {t("sms.counter", { n: format.number(length), max: format.number(limit) })}
        </span>
      </TextAreaField>
      <ErrorAlert message={conversation.error} />
      <div className="sms-config__actions">
        <button type="submit" className="btn btn--primary" disabled={sending}>
          {sending ? t("sms.sending") : t("sms.send")}
        </button>
        <button type="button" className="btn btn--secondary" onClick={conversation.clear}>
          {t("sms.clear")}
        </button>
      </div>
    </Form>
  );
}
