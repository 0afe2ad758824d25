import {
  createPackageRequestSchema,
  idQuerySchema,
  messageResponseSchema,
  updatePackageRequestSchema,
  walletPackageSaveResponseSchema,
  walletPackagesResponseSchema,
} from "@storefront/shared";
import { createPackage, deletePackage, listPackages, updatePackage } from "../../services/packages";
import { defineRoute, TAGS } from "../define";

const paths = ["/admin/wallet-packages-simple.php", "/admin/packages"] as const;

export const adminPackagesRoutes = [
  defineRoute({
    method: "get",
    paths,
    tag: TAGS.admin,
    summary: "Wallet packages",
    auth: "admin",
    permission: "packages:view",
    response: walletPackagesResponseSchema,
    errors: [401, 403],
    handler: async () => ({ success: true as const, packages: await listPackages() }),
  }),

  defineRoute({
    method: "post",
    paths,
    tag: TAGS.admin,
    summary: "Create a wallet package",
    auth: "admin",
    permission: "packages:manage",
    grants: "package_value",
    body: createPackageRequestSchema,
    response: walletPackageSaveResponseSchema,
    status: 201,
    errors: [400, 401, 403, 409],
    handler: async ({ body: { id: _ignored, ...fields }, req }) => {
      const pkg = await createPackage(req.admin!, fields);
      return { success: true as const, package: pkg, message: "Package created successfully" };
    },
  }),

  defineRoute({
    method: "put",
    paths,
    tag: TAGS.admin,
    summary: "Update a wallet package",
    auth: "admin",
    permission: "packages:manage",
    grants: "package_value",
    body: updatePackageRequestSchema,
    response: walletPackageSaveResponseSchema,
    errors: [400, 401, 403, 404, 409],
    handler: async ({ body, req }) => ({
      success: true as const,
      package: await updatePackage(req.admin!, body),
      message: "Package updated successfully",
    }),
  }),

  defineRoute({
    method: "delete",
    paths,
    tag: TAGS.admin,
    summary: "Delete a wallet package",
    auth: "admin",
    permission: "packages:manage",
    query: idQuerySchema,
    response: messageResponseSchema,
    errors: [400, 401, 403, 404, 409],
    handler: async ({ query, req }) => {
      await deletePackage(req.admin!, query.id);
      return { success: true as const, message: "Package deleted successfully" };
    },
  }),
];
