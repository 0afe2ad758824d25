import {
  adminAccountResponseSchema,
  adminsResponseSchema,
  createAdminRequestSchema,
  noInputSchema,
  updateAdminRequestSchema,
} from "@storefront/shared";
import { createAdmin, listAdmins, updateAdmin } from "../../services/admins";
import { defineRoute, TAGS } from "../define";

const paths = ["/admin/admins.php", "/admin/admins"] as const;

/** Administrators (docs/security.md): only a role with admins:manage sees or changes them. */
export const adminAdminsRoutes = [
  defineRoute({
    method: "get",
    paths,
    tag: TAGS.admin,
    summary: "Administrators with role, state, last login and creation date",
    auth: "admin",
    permission: "admins:manage",
    query: noInputSchema,
    response: adminsResponseSchema,
    errors: [401, 403],
    handler: () => listAdmins(),
  }),

  defineRoute({
    method: "post",
    paths,
    tag: TAGS.admin,
    summary: "Add an administrator (password of 12+ characters, not containing the username)",
    auth: "admin",
    permission: "admins:manage",
    body: createAdminRequestSchema,
    response: adminAccountResponseSchema,
    status: 201,
    errors: [400, 401, 403, 409],
    handler: async ({ body, req }) => ({ success: true as const, admin: await createAdmin(req.admin!, body) }),
  }),

  defineRoute({
    method: "put",
    paths,
    tag: TAGS.admin,
    summary:
      "Change an administrator's role, active state or password (a reset or deactivation ends their sessions; never the last active super admin, never oneself)",
    auth: "admin",
    permission: "admins:manage",
    body: updateAdminRequestSchema,
    response: adminAccountResponseSchema,
    errors: [400, 401, 403, 404, 409],
    handler: async ({ body, req }) => {
      const { account, sessionVersion } = await updateAdmin(req.admin!, body);
      // Resetting one's own password ends one's other sessions, not this one.
      if (account.id === req.admin!.id) req.session.adminSessionVersion = sessionVersion;
      return { success: true as const, admin: account };
    },
  }),
];
