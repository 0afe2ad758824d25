import { useTranslation } from "react-i18next";
import { BackButton, PageHeader } from "../../components/Layout";

export default function SmsAI() {
  const { t } = useTranslation();
  return <PageHeader title={t("sms.title")} start={<BackButton />} />;
}
