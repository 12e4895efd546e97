import { randomUUID } from "node:crypto";
import type { OperatorGrant, OperatorRecord, OperatorStore } from "../store/index.js";
import { ConsoleError } from "./errors.js";
import { hashPassword, passwordProblem } from "./passwords.js";
import { API_TOKEN_PREFIX, randomToken, tokenHash } from "./secret-tokens.js";

export interface NewOperator {
  readonly email: string;
  readonly name: string;
  readonly password: string;
  readonly grants: readonly OperatorGrant[];
}

/** Creates an operator (the CLI's `admin create`, the API's POST /operators); the password is only hashed. */
export async function createOperatorAccount(
  operators: OperatorStore,
  account: NewOperator,
  now: () => number,
): Promise<OperatorRecord> {
  const problem = passwordProblem(account.password);
  if (problem !== undefined) throw new ConsoleError("invalidRequest", `password: ${problem}`);
  const email = account.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email))
    throw new ConsoleError("invalidRequest", "email: not an e-mail address");
  const record: OperatorRecord = {
    id: randomUUID(),
    email,
    name: account.name.trim() || email,
    passwordHash: await hashPassword(account.password),
    grants: account.grants,
    createdAt: now(),
  };
  if ((await operators.createOperator(record)) === "exists") {
    throw new ConsoleError("operatorExists", `an operator with the e-mail ${email} exists already`);
  }
  return record;
}

/** A new API token for the operator: the answer is the only time the token is seen. */
export async function createApiToken(
  operators: OperatorStore,
  operatorId: string,
  name: string,
  now: () => number,
) {
  const token = `${API_TOKEN_PREFIX}${randomToken()}`;
  const record = { id: randomUUID(), tokenHash: tokenHash(token), operatorId, name, createdAt: now() };
  await operators.createApiToken(record);
  return { token, record };
}
