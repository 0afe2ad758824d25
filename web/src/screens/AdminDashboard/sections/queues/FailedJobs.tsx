/** Failed jobs with their error; Retry and Remove (confirmed) for roles with queues:manage. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueuesResponse } from "@storefront/shared";
import { ConfirmDialog } from "../../../../components/ConfirmDialog";
import { useToast } from "../../../../components/Toasts";
import { adminApi } from "../../adminApi";
import { adminKeys, useAdminMutation } from "../../queries";
import { errorText, formatDate, Panel, Table, useCan } from "../../ui";

type JobAction = { queue: string; id: string; action: "retry" | "remove" };

export function FailedJobs({ jobs }: { jobs: QueuesResponse["failed"] | undefined }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const can = useCan();
  const [removing, setRemoving] = useState<{ queue: string; id: string } | null>(null);
  const jobAction = useAdminMutation(
    ({ queue, id, action }: JobAction) => adminApi.jobAction(queue, id, action),
    [adminKeys.queues],
  );

  async function act(job: JobAction) {
    setRemoving(null);
    try {
      await jobAction.mutateAsync(job);
      toast.success(t(job.action === "retry" ? "admin.queues.retried" : "admin.queues.removed"));
    } catch (caught) {
      toast.error(errorText(caught, t("admin.queues.actionFailed")));
    }
  }

  return (
    <Panel title={t("admin.queues.failedJobs")}>
      <Table
        testId="failed-jobs-table"
        headers={[
          t("admin.queues.queue"),
          t("admin.queues.job"),
          t("admin.queues.error"),
          t("admin.queues.attempts"),
          t("admin.queues.failedAt"),
          ...(can("queues:manage") ? [t("admin.users.actions")] : []),
        ]}
        rows={jobs}
        empty={t("admin.queues.noFailed")}
      >
        {(job) => (
          <tr key={`${job.queue}:${job.id}`} data-job-id={job.id}>
            <td translate="no" dir="ltr">
              {job.queue}
            </td>
            <td className="admin-mono" translate="no">
              {job.name} #{job.id}
            </td>
            <td className="admin-break" dir="auto">
              {job.error}
            </td>
            <td>{job.attempts}</td>
            <td>{formatDate(job.failed_at, i18n.language)}</td>
            {can("queues:manage") && (
              <td className="admin-actions">
                <button
                  type="button"
                  className="btn btn--secondary btn--small"
                  onClick={() => void act({ queue: job.queue, id: job.id, action: "retry" })}
                >
                  {t("admin.queues.retry")}
                </button>
                <button
                  type="button"
                  className="btn btn--danger btn--small"
                  onClick={() => setRemoving({ queue: job.queue, id: job.id })}
                >
                  {t("admin.queues.remove")}
                </button>
              </td>
            )}
          </tr>
        )}
      </Table>
      <ConfirmDialog
        open={removing !== null}
        title={t("admin.queues.removeTitle")}
        message={t("admin.queues.removeConfirm")}
        danger
        onConfirm={() => removing && void act({ ...removing, action: "remove" })}
        onCancel={() => setRemoving(null)}
      />
    </Panel>
  );
}
