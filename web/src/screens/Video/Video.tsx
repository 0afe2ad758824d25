import { useTranslation } from "react-i18next";
import { BackButton, PageHeader } from "../../components/Layout";

export default function Video() {
  const { t } = useTranslation();
  return <PageHeader title={t("video.title")} start={<BackButton />} />;
}
