import { useTranslation } from "react-i18next";
import { BackButton, PageHeader } from "../../components/Layout";

export default function TextAI() {
  const { t } = useTranslation();
  return <PageHeader title={t("textAi.title")} start={<BackButton />} />;
}
