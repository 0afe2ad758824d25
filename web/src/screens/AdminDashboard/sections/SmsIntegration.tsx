/** SPEC §2 SMS Integration: Configuration tab and Logs & Statistics tab (logs, stats, messages). */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Tabs } from "../ui";
import { ConfigTab } from "./smsIntegration/ConfigTab";
import { LogsTab } from "./smsIntegration/LogsTab";

const TABS = ["config", "logs"] as const;

export default function SmsIntegration() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<"config" | "logs">("config");
  return (
    <div className="admin-stack">
      <Tabs
        tabs={TABS}
        current={tab}
        onSelect={setTab}
        label={(id) => t(id === "config" ? "admin.smsIntegration.tabConfig" : "admin.smsIntegration.tabLogs")}
        ariaLabel={t("admin.smsIntegration.title")}
      />
      <div role="tabpanel">{tab === "config" ? <ConfigTab /> : <LogsTab />}</div>
    </div>
  );
}
