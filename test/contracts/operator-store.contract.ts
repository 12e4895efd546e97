import { describe, expect, it } from "vitest";
import type { OperatorRecord, OperatorStore } from "../../src/store/index.js";

const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
const HOUR = 3_600_000;

const ada: OperatorRecord = {
  id: "op-ada",
  email: "ada@example.com",
  name: "Ada Obi",
  passwordHash: "scrypt$N=16384,r=8,p=1$c2FsdA$aGFzaA",
  grants: [
    { tenantId: "acme", role: "admin" },
    { tenantId: "beta", role: "agent" },
  ],
  createdAt: T0,
};

/** Operator accounts, sessions and API tokens (`MessageStore.operators`): both adapters answer alike. */
export function describeOperatorStoreContract(name: string, open: () => Promise<OperatorStore>): void {
  describe(`OperatorStore contract: ${name}`, () => {
    it("creates an operator once per e-mail, compared lower-cased, and changes nothing on a repeat", async () => {
      const store = await open();
      expect(await store.createOperator({ ...ada, email: "Ada@Example.COM" })).toBe("created");
      expect(await store.operatorById("op-ada")).toEqual(ada);
      expect(await store.operatorByEmail("ADA@example.com")).toEqual(ada);
      expect(await store.operatorByEmail("nobody@example.com")).toBeUndefined();
      expect(await store.operatorById("nobody")).toBeUndefined();
      const impostor = {
        ...ada,
        id: "op-other",
        email: "ada@EXAMPLE.com",
        name: "Impostor",
        grants: [{ tenantId: "*", role: "admin" as const }],
      };
      expect(await store.createOperator(impostor)).toBe("exists");
      // The same id with another e-mail exists too.
      expect(await store.createOperator({ ...ada, email: "ada2@example.com" })).toBe("exists");
      expect(await store.operatorById("op-other")).toBeUndefined();
      expect(await store.listOperators()).toEqual([ada]);
    });

    it("lists operators by e-mail, with their grants, and replaces grants and passwords", async () => {
      const store = await open();
      await store.createOperator(ada);
      await store.createOperator({
        id: "op-bola",
        email: "bola@example.com",
        name: "Bola",
        passwordHash: "h2",
        grants: [{ tenantId: "*", role: "admin" }],
        createdAt: T0 + 1,
      });
      await store.createOperator({
        id: "op-zed",
        email: "a.zed@example.com",
        name: "Zed",
        passwordHash: "h3",
        grants: [],
        createdAt: T0 + 2,
      });
      expect((await store.listOperators()).map((o) => [o.email, o.grants.length])).toEqual([
        ["a.zed@example.com", 0],
        ["ada@example.com", 2],
        ["bola@example.com", 1],
      ]);
      await store.setGrants("op-ada", [
        { tenantId: "gamma", role: "agent" },
        { tenantId: "acme", role: "agent" },
        // Named twice: the last role stands.
        { tenantId: "gamma", role: "admin" },
      ]);
      await store.setPassword("op-ada", "new-hash");
      expect(await store.operatorById("op-ada")).toEqual({
        ...ada,
        passwordHash: "new-hash",
        grants: [
          { tenantId: "acme", role: "agent" },
          { tenantId: "gamma", role: "admin" },
        ],
      });
      await store.setGrants("op-bola", []);
      expect((await store.operatorById("op-bola"))?.grants).toEqual([]);
      // An unknown operator gets no grants and no account.
      await store.setGrants("op-ghost", [{ tenantId: "acme", role: "admin" }]);
      await store.setPassword("op-ghost", "x");
      expect(await store.operatorById("op-ghost")).toBeUndefined();
      expect(await store.listOperators()).toHaveLength(3);
    });

    it("keeps sessions until they expire, slides them, and ends one or all of an operator's", async () => {
      const store = await open();
      const session = {
        idHash: "a".repeat(64),
        operatorId: "op-ada",
        csrfToken: "csrf-1",
        createdAt: T0,
        expiresAt: T0 + HOUR,
      };
      await store.createSession(session);
      await store.createSession({ ...session, idHash: "b".repeat(64), csrfToken: "csrf-2" });
      await store.createSession({ ...session, idHash: "c".repeat(64), operatorId: "op-bola" });
      expect(await store.session(session.idHash, T0 + HOUR - 1)).toEqual(session);
      expect(await store.session(session.idHash, T0 + HOUR)).toBeUndefined();
      expect(await store.session("f".repeat(64), T0)).toBeUndefined();
      await store.extendSession(session.idHash, T0 + 2 * HOUR);
      expect(await store.session(session.idHash, T0 + HOUR)).toEqual({
        ...session,
        expiresAt: T0 + 2 * HOUR,
      });
      await store.deleteSession(session.idHash);
      expect(await store.session(session.idHash, T0)).toBeUndefined();
      expect(await store.session("b".repeat(64), T0)).toBeDefined();
      await store.deleteSessionsOf("op-ada");
      expect(await store.session("b".repeat(64), T0)).toBeUndefined();
      expect(await store.session("c".repeat(64), T0)).toBeDefined();
    });

    it("uses API tokens until revoked, recording their last use", async () => {
      const store = await open();
      const token = {
        id: "tok-1",
        tokenHash: "1".repeat(64),
        operatorId: "op-ada",
        name: "CRM sync",
        createdAt: T0,
      };
      await store.createApiToken(token);
      await store.createApiToken({
        ...token,
        id: "tok-2",
        tokenHash: "2".repeat(64),
        name: "BI",
        createdAt: T0 + 1,
      });
      await store.createApiToken({ ...token, id: "tok-3", tokenHash: "3".repeat(64), operatorId: "op-bola" });
      expect(await store.useApiToken("9".repeat(64), T0)).toBeUndefined();
      expect(await store.useApiToken(token.tokenHash, T0 + HOUR)).toEqual({
        ...token,
        lastUsedAt: T0 + HOUR,
      });
      // An earlier use reported late does not move the last use back.
      expect(await store.useApiToken(token.tokenHash, T0 + 1)).toEqual({ ...token, lastUsedAt: T0 + HOUR });
      await store.revokeApiToken("tok-1", T0 + 2 * HOUR);
      await store.revokeApiToken("tok-1", T0 + 3 * HOUR);
      expect(await store.useApiToken(token.tokenHash, T0 + 4 * HOUR)).toBeUndefined();
      expect(await store.apiTokensOf("op-ada")).toEqual([
        { ...token, lastUsedAt: T0 + HOUR, revokedAt: T0 + 2 * HOUR },
        { ...token, id: "tok-2", tokenHash: "2".repeat(64), name: "BI", createdAt: T0 + 1 },
      ]);
      expect(await store.apiTokensOf("nobody")).toEqual([]);
    });
  });
}
