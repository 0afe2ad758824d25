import { useTranslation } from "react-i18next";
import { BackButton, PageHeader } from "../../components/Layout";

export default function Profile() {
  const { t } = useTranslation();
  return <PageHeader title={t("profile.title")} start={<BackButton />} />;
}
