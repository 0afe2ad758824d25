import { useTranslation } from "react-i18next";
import { BackButton, PageHeader } from "../../components/Layout";

export default function Doctor() {
  const { t } = useTranslation();
  return <PageHeader title={t("doctor.title")} start={<BackButton />} />;
}
