/**
 * SPEC §2/§4/§5/§8 SMS AI: a conversation panel (SmsThread) and a configuration panel (SmsConfig);
 * useSmsConversation keeps the history per user in browser storage and sends.
 */
import { useTranslation } from "react-i18next";
import { BackButton, PageHeader } from "../../components/Layout";
import { SmsConfig } from "./SmsConfig";
import { SmsThread } from "./SmsThread";
import { useSmsConversation } from "./useSmsConversation";
import "./SmsAI.css";

export default function SmsAI() {
  const { t } = useTranslation();
  const conversation = useSmsConversation();
  return (
    <div className="sms-page">
      <PageHeader title={t("sms.title")} start={<BackButton />} />
      <main id="main" className="sms-page__main">
        <SmsThread messages={conversation.messages} />
        <SmsConfig conversation={conversation} />
      </main>
    </div>
  );
}
