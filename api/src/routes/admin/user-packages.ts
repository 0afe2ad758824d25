import {
  MESSAGES,
  assignPackageRequestSchema,
  assignPackageResponseSchema,
  idQuerySchema,
  successSchema,
  userPackagesQuerySchema,
  userPackagesResponseSchema,
} from "@storefront/shared";
import type { RequestHandler } from "express";
import { badRequest } from "../../errors";
import { assignPackage, listAssignments, removeAssignment } from "../../services/packages";
import { defineRoute, TAGS } from "../define";

const paths = ["/admin/user-packages.php", "/admin/user-packages"] as const;

/** SPEC §5 names this text for a missing package, before any other field is looked at. */
const packageRequired: RequestHandler = (req, _res, next) => {
  const packageId = (req.body as { packageId?: unknown } | undefined)?.packageId;
  if (packageId === undefined || packageId === null || String(packageId).trim() === "") {
    throw badRequest(MESSAGES.packageRequired, "packageId");
  }
  next();
};

export const adminUserPackagesRoutes = [
  /** With ?userId= the user's packages (SPEC: packages), otherwise every assignment (assignments). */
  defineRoute({
    method: "get",
    paths,
    tag: TAGS.admin,
    summary: "Package assignments (all, or ?userId= for one user's packages)",
    auth: "admin",
    permission: "packages:view",
    query: userPackagesQuerySchema,
    response: userPackagesResponseSchema,
    errors: [400, 401, 403],
    handler: async ({ query }) => {
      const { items, total, total_pages } = await listAssignments(query);
      const list = query.userId ? { packages: items } : { assignments: items };
      return { success: true as const, ...list, total, page: query.page, total_pages };
    },
  }),

  defineRoute({
    method: "post",
    paths,
    tag: TAGS.admin,
    summary: "Assign a package to a user (credits its coins once)",
    auth: "admin",
    // Assigning credits the package's coins (and, with autoRenew, their renewals): a coin grant.
    permission: "packages:assign",
    grants: ["assignment", "renewal"],
    middleware: [packageRequired],
    body: assignPackageRequestSchema,
    response: assignPackageResponseSchema,
    errors: [400, 401, 403, 404, 409],
    handler: async ({ body, req, ctx }) => {
      const { assignment, coinsAdded } = await assignPackage(req.admin!, body, ctx.pusher);
      return { success: true as const, coinsAdded, assignment };
    },
  }),

  defineRoute({
    method: "delete",
    paths,
    tag: TAGS.admin,
    summary: "Remove a package assignment",
    auth: "admin",
    permission: "packages:assign",
    query: idQuerySchema,
    response: successSchema,
    errors: [400, 401, 403, 404],
    handler: async ({ query, req }) => {
      await removeAssignment(req.admin!, query.id);
      return { success: true as const };
    },
  }),
];
