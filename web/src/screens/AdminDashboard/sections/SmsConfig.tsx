/** SPEC §2 SMS Config: the list of SMPP gateway settings, with add, edit and delete. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { adminApi, type SmsGateway, type SmsGatewayForm } from "../adminApi";
import { useConfirmedDelete } from "../forms";
import { adminKeys, adminQueries, useAdminMutation, useAdminQuery } from "../queries";
import { Panel, Table, useCan } from "../ui";
import { GATEWAY_FIELDS, GatewayForm, type GatewayDraft } from "./smsConfig/GatewayForm";

const EMPTY: SmsGatewayForm = { gatewayName: "", shortcode: "", port: "", smsType: "MT", apiUrl: "", username: "", password: "" };

export default function SmsConfig() {
  const { t } = useTranslation();
  const can = useCan();
  const { data } = useAdminQuery(adminQueries.smsGateways(), t("admin.smsConfig.loadFailed"));
  const [form, setForm] = useState<GatewayDraft | null>(null);
  const remove = useAdminMutation((gateway: SmsGateway) => adminApi.deleteSmsConfig(gateway.id), [adminKeys.smsGateways]);

  const deletion = useConfirmedDelete<SmsGateway>({
    remove: remove.mutateAsync,
    title: t("admin.smsConfig.deleteTitle"),
    message: (gateway) => t("admin.smsConfig.deleteConfirm", { name: gateway?.gatewayName ?? "" }),
    deleted: t("admin.smsConfig.deleted"),
    failed: t("admin.smsConfig.deleteFailed"),
  });

  return (
    <Panel
      title={t("admin.smsConfig.title")}
      actions={
        can("sms:manage") && (
          <button type="button" className="btn btn--primary" onClick={() => setForm({ ...EMPTY })}>
            + {t("admin.smsConfig.add")}
          </button>
        )
      }
    >
      {form && <GatewayForm key={form.id ?? "new"} initial={form} onDone={() => setForm(null)} />}
      <Table
        testId="sms-config-table"
        headers={[
          ...GATEWAY_FIELDS.filter((f) => f !== "password").map((f) => t(`admin.smsConfig.${f}`)),
          t("admin.users.actions"),
        ]}
        rows={data}
        empty={t("admin.smsConfig.empty")}
      >
        {(g) => (
          <tr key={g.id}>
            <td dir="auto">{g.gatewayName}</td>
            <td dir="ltr">{g.shortcode}</td>
            <td>{g.port}</td>
            <td>{g.smsType}</td>
            <td dir="ltr" className="admin-break" translate="no">
              {g.apiUrl}
            </td>
            <td dir="ltr" translate="no">
              {g.username}
            </td>
            <td className="admin-actions">
              {can("sms:manage") && (
                <>
                  <button
                    type="button"
                    className="btn btn--secondary btn--small"
                    onClick={() => {
                      const { password_set: _set, ...fields } = g;
                      setForm({ ...fields, password: "" });
                    }}
                  >
                    {t("admin.packages.edit")}
                  </button>
                  <button type="button" className="btn btn--danger btn--small" onClick={() => deletion.ask(g)}>
                    {t("admin.packages.delete")}
                  </button>
                </>
              )}
            </td>
          </tr>
        )}
      </Table>
      {deletion.dialog}
    </Panel>
  );
}
