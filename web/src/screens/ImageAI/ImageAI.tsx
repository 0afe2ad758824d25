import { useTranslation } from "react-i18next";
import { BackButton, PageHeader } from "../../components/Layout";

export default function ImageAI() {
  const { t } = useTranslation();
  return <PageHeader title={t("image.title")} start={<BackButton />} />;
}
