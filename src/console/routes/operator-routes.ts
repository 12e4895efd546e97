import { z } from "zod";
import type { ApiTokenRecord, OperatorRecord } from "../../store/index.js";
import { type ApiRoute, defineRoute } from "../api-route.js";
import {
  operatorCreateRequest,
  operatorList,
  operatorResult,
  tokenCreated,
  tokenCreateRequest,
  tokenList,
} from "../api-schemas.js";
import type { ConsoleDeps } from "../console-deps.js";
import { ConsoleError } from "../errors.js";
import { checkAdmin, type OperatorAccess, tenantsAsked } from "../operator-access.js";
import { createApiToken, createOperatorAccount } from "../operator-accounts.js";

const assignableList = z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) });

function operatorView(operator: OperatorRecord) {
  return { id: operator.id, email: operator.email, name: operator.name, grants: [...operator.grants] };
}

function tokenView(token: ApiTokenRecord) {
  return {
    id: token.id,
    name: token.name,
    createdAt: token.createdAt,
    ...(token.lastUsedAt === undefined ? {} : { lastUsedAt: token.lastUsedAt }),
    ...(token.revokedAt === undefined ? {} : { revokedAt: token.revokedAt }),
  };
}

export function operatorRoutes(deps: ConsoleDeps): ApiRoute[] {
  const { operators } = deps.store;
  return [
    defineRoute({
      method: "GET",
      path: "/api/v1/tenants/:tenant/operators",
      summary:
        "Who can be assigned a conversation of this tenant: each operator's id and name (for any role)",
      tag: "operators",
      auth: "operator",
      response: assignableList,
      errors: [404],
      async handle({ access, params }) {
        const [tenantId] = tenantsAsked(access as OperatorAccess, params.tenant as string);
        const all = await operators.listOperators();
        return {
          items: all
            .filter((operator) =>
              operator.grants.some((grant) => grant.tenantId === "*" || grant.tenantId === tenantId),
            )
            .map((operator) => ({ id: operator.id, name: operator.name })),
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/v1/operators",
      summary: "Operators with a role on a tenant I administer",
      tag: "operators",
      auth: "operator",
      response: operatorList,
      async handle({ access }) {
        const me = access as OperatorAccess;
        const administered = me.tenantIds.filter((tenantId) => me.roleOn(tenantId) === "admin");
        if (administered.length === 0)
          throw new ConsoleError("forbidden", "listing operators needs the admin role");
        const all = await operators.listOperators();
        return {
          items: all
            .filter((operator) =>
              operator.grants.some(
                (grant) => grant.tenantId === "*" || administered.includes(grant.tenantId),
              ),
            )
            .map(operatorView),
        };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/api/v1/operators",
      summary: "Create an operator with roles on tenants I administer",
      tag: "operators",
      auth: "operator",
      body: operatorCreateRequest,
      response: operatorResult,
      status: 201,
      errors: [409],
      async handle({ access, body }) {
        const me = access as OperatorAccess;
        const named = body.grants.map((grant) => grant.tenantId);
        // "*" reaches tenants added later: only an operator who is admin everywhere may give it.
        if (
          named.includes("*") &&
          !me.operator.grants.some((g) => g.tenantId === "*" && g.role === "admin")
        ) {
          throw new ConsoleError("forbidden", 'a grant on "*" needs the admin role on "*"');
        }
        checkAdmin(
          me,
          named.filter((tenantId) => tenantId !== "*"),
        );
        return { operator: operatorView(await createOperatorAccount(operators, body, deps.now)) };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/api/v1/tokens",
      summary: "My API tokens (never the tokens themselves)",
      tag: "operators",
      auth: "operator",
      response: tokenList,
      async handle({ access }) {
        const me = access as OperatorAccess;
        return { items: (await operators.apiTokensOf(me.operator.id)).map(tokenView) };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/api/v1/tokens",
      summary:
        "Create an API token for scripts (`Authorization: Bearer sst_…`); the answer is the only time it is shown",
      tag: "operators",
      auth: "operator",
      body: tokenCreateRequest,
      response: tokenCreated,
      status: 201,
      async handle({ access, body }) {
        const me = access as OperatorAccess;
        const { token, record } = await createApiToken(operators, me.operator.id, body.name, deps.now);
        return { token, apiToken: tokenView(record) };
      },
    }),
    defineRoute({
      method: "DELETE",
      path: "/api/v1/tokens/:id",
      summary: "Revoke one of my API tokens",
      tag: "operators",
      auth: "operator",
      status: 204,
      errors: [404],
      async handle({ access, params }) {
        const me = access as OperatorAccess;
        const mine = await operators.apiTokensOf(me.operator.id);
        if (!mine.some((token) => token.id === params.id))
          throw new ConsoleError("notFound", "no such token");
        await operators.revokeApiToken(params.id as string, deps.now());
        return undefined;
      },
    }),
  ];
}
