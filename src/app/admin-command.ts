import { randomBytes } from "node:crypto";
import pg from "pg";
import type { AppConfig } from "../config/index.js";
import { createApiToken, createOperatorAccount } from "../console/index.js";
import { openSqliteDatabase } from "../sqlite/index.js";
import type { OperatorGrant, OperatorRecord, OperatorStore } from "../store/index.js";
import { openPostgresMessageStore } from "../store/postgres/index.js";
import { createSqliteMessageStore } from "../store/sqlite/index.js";
import { StartupError } from "./errors.js";

/** `sharpsharp admin …`, parsed. */
export type AdminCommand =
  | {
      readonly action: "create";
      readonly email: string;
      readonly name?: string | undefined;
      readonly grants: readonly OperatorGrant[];
      /** None: one is made and printed once. */
      readonly password?: string | undefined;
    }
  | { readonly action: "token"; readonly email: string; readonly name: string }
  | { readonly action: "list" };

export type AdminCommandResult =
  | { readonly action: "create"; readonly operator: OperatorRecord; readonly generatedPassword?: string }
  | { readonly action: "token"; readonly operator: OperatorRecord; readonly token: string }
  | { readonly action: "list"; readonly operators: readonly OperatorRecord[] };

/** A password people can type from a phone: 18 characters of base64url, about 108 bits. */
export function generatedPassword(): string {
  return randomBytes(14).toString("base64url").slice(0, 18);
}

/**
 * Opens the message log's database as the configured mode has it
 * (PostgreSQL with DATABASE_URL, else the embedded SQLite file, which only
 * one process may hold: run this while the gateway is stopped), runs `use`,
 * closes it.
 */
async function withOperatorStore<T>(
  config: AppConfig,
  use: (operators: OperatorStore) => Promise<T>,
): Promise<T> {
  if (config.databaseUrl !== undefined) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 2 });
    pool.on("error", () => {});
    try {
      return await use((await openPostgresMessageStore({ pool, schema: config.databaseSchema })).operators);
    } finally {
      await pool.end();
    }
  }
  if (config.redis.server !== undefined) {
    throw new StartupError("operators live in the message log: set DATABASE_URL (the workers' PostgreSQL)");
  }
  const db = openSqliteDatabase({ dataDir: config.dataDir });
  try {
    return await use(createSqliteMessageStore(db).operators);
  } finally {
    db.close();
  }
}

export async function runAdminCommand(config: AppConfig, command: AdminCommand): Promise<AdminCommandResult> {
  const served = new Set(config.tenants.map((tenant) => tenant.id));
  return withOperatorStore(config, async (operators) => {
    switch (command.action) {
      case "create": {
        for (const grant of command.grants) {
          if (grant.tenantId !== "*" && !served.has(grant.tenantId)) {
            throw new StartupError(
              `no tenant "${grant.tenantId}" is configured (tenants: ${[...served].join(", ")})`,
            );
          }
        }
        const password = command.password ?? generatedPassword();
        const operator = await createOperatorAccount(
          operators,
          { email: command.email, name: command.name ?? command.email, password, grants: command.grants },
          Date.now,
        );
        return {
          action: "create",
          operator,
          ...(command.password === undefined ? { generatedPassword: password } : {}),
        };
      }
      case "token": {
        const operator = await operators.operatorByEmail(command.email.trim().toLowerCase());
        if (operator === undefined) throw new StartupError(`no operator with the e-mail ${command.email}`);
        const { token } = await createApiToken(operators, operator.id, command.name, Date.now);
        return { action: "token", operator, token };
      }
      case "list":
        return { action: "list", operators: await operators.listOperators() };
    }
  });
}
