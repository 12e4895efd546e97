import { z } from "zod";

const envName = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/, { error: "must name an environment variable (upper case, digits, '_')" });

const coalesceSchema = z.object({
  windowMs: z.number().int().min(0).max(60_000),
  maxMs: z.number().int().min(0).max(300_000),
});

/** Keys that would put a secret in the file itself; the file names variables instead. */
export const FORBIDDEN_SECRET_KEYS = ["appSecret", "verifyToken", "graphToken", "token", "apiKey"] as const;

/**
 * One tenant in sharpsharp.config.json / .yaml. Field names are the contract
 * from docs/configuration.md; fields later capabilities own (persona, router, replies,
 * tools, …) pass through untouched until their issue validates them.
 */
export const tenantFileSchema = z.looseObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, {
    error: "must be lower-case letters, digits and '-', at most 63 characters (it is used in URLs and keys)",
  }),
  appSecretEnv: envName,
  verifyTokenEnv: envName,
  graphTokenEnv: envName.optional(),
  /** Variables this tenant's `{ env }` may read beyond its own prefix (see tenant-env-access.ts). */
  allowedEnv: z.array(envName).optional(),
  phoneNumberIds: z
    .array(z.string().regex(/^\d{5,20}$/, { error: "must be a numeric phone number id" }))
    .min(1, { error: "must list at least one phone number id" }),
  throughputMps: z.number().int().min(1).max(10_000).optional(),
  coalesce: coalesceSchema.optional(),
  staleAfterMs: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3_600_000)
    .optional(),
});

export const tenantsFileSchema = z.object({
  tenants: z.array(tenantFileSchema).min(1, { error: "must list at least one tenant" }),
});

export type TenantFileEntry = z.output<typeof tenantFileSchema>;
