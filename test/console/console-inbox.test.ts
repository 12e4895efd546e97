import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type ConsoleClient,
  type ConsoleGateway,
  eventually,
  logIn,
  SHOP_NUMBER,
  startConsoleGateway,
} from "../support/console-harness.js";

interface Conversation {
  readonly conversationKey: string;
  readonly mode: string;
  readonly assignedAgent?: string;
  readonly assignedAgentName?: string;
  readonly awaitingReplySince?: number;
  readonly unread: boolean;
}
interface Message {
  readonly direction: string;
  readonly text?: string;
  readonly type: string;
  readonly sentBy?: string;
  readonly sentByName?: string;
  readonly turnId?: string;
  readonly delivery?: { status: string };
}
interface Detail {
  readonly conversation: Conversation;
  readonly messages: Message[];
  readonly turns: { turnId: string; decision: { tier: string; intent: string } }[];
  readonly notes: { text: string; operatorName?: string }[];
  readonly window: { open: boolean };
}

describe("console API: the inbox, end to end on the embedded gateway", () => {
  let running: ConsoleGateway;
  let admin: ConsoleClient;
  const sentTo = (to: string) =>
    running.fake.fake.messages({ to }).filter((message) => message.type !== "reaction");
  const textsTo = (to: string) =>
    sentTo(to).map((message) => {
      const body = message.body as { text?: { body?: string }; interactive?: { body?: { text?: string } } };
      return body.text?.body ?? body.interactive?.body?.text ?? message.type;
    });
  const detail = (key: string) =>
    admin.json<Detail>("GET", `/api/v1/conversations/${encodeURIComponent(key)}`);
  const act = (key: string, action: string, body: unknown = {}) =>
    admin.request("POST", `/api/v1/conversations/${encodeURIComponent(key)}/${action}`, body);
  const simulate = (from: string, text: string, chaos?: Record<string, boolean>) =>
    admin.json<{ conversationKey: string; wamids: string[] }>("POST", "/api/v1/simulator/messages", {
      tenant: "shop",
      from,
      text,
      ...(chaos === undefined ? {} : { chaos }),
    });

  beforeAll(async () => {
    running = await startConsoleGateway();
    admin = await logIn(running.consoleUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await running?.close();
  });

  it("lands a handoff in the inbox, lets an operator take it, answer through the queue and give it back to the bot", async () => {
    const customer = "2348031234567";
    const started = Date.now();
    const { conversationKey } = await simulate(customer, "I want to talk to a person");
    expect(conversationKey).toBe(`shop:${SHOP_NUMBER}:${customer}`);

    const waiting = await eventually(
      async () => {
        const list = await admin.json<{ items: Conversation[] }>(
          "GET",
          "/api/v1/conversations?view=needs_human",
        );
        return list.items.find((item) => item.conversationKey === conversationKey);
      },
      2000,
      "the conversation to need a human",
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(waiting.mode).toBe("human");
    expect(waiting.unread).toBe(true);
    // The handoff told the customer; the bot falls silent from here.
    await eventually(
      async () => (sentTo(customer).length === 1 ? true : undefined),
      3000,
      "the handoff reply",
    );

    const taken = (await (await act(conversationKey, "takeover")).json()) as { conversation: Conversation };
    expect(taken.conversation).toMatchObject({ mode: "human", assignedAgentName: "Ada Admin" });
    const mine = await admin.json<{ items: Conversation[] }>("GET", "/api/v1/conversations?view=mine");
    expect(mine.items.map((item) => item.conversationKey)).toContain(conversationKey);

    // Written while a human has it: recorded, never answered by the bot.
    await simulate(customer, "hello? anybody there");
    await eventually(
      async () => {
        const now = await detail(conversationKey);
        return now.messages.some((message) => message.text === "hello? anybody there") ? true : undefined;
      },
      3000,
      "the customer's second message in the log",
    );

    const reply = await act(conversationKey, "reply", { text: "Good afternoon, I'm Ada. How can I help?" });
    expect(reply.status).toBe(202);
    await eventually(
      async () => (sentTo(customer).length === 2 ? true : undefined),
      3000,
      "the operator's reply",
    );
    expect(textsTo(customer)[1]).toBe("Good afternoon, I'm Ada. How can I help?");

    const shown = await eventually(
      async () => {
        const now = await detail(conversationKey);
        const mineMessage = now.messages.find((message) => message.sentBy !== undefined);
        return mineMessage?.delivery?.status === "read" ? now : undefined;
      },
      3000,
      "the reply's read tick",
    );
    const operatorMessage = shown.messages.find((message) => message.sentBy !== undefined) as Message;
    expect(operatorMessage).toMatchObject({
      text: "Good afternoon, I'm Ada. How can I help?",
      sentByName: "Ada Admin",
    });
    expect(shown.conversation.awaitingReplySince).toBeUndefined();
    expect(shown.turns.some((turn) => turn.decision.intent === "talk_to_human")).toBe(true);
    expect(shown.window.open).toBe(true);

    const back = (await (await act(conversationKey, "mode", { mode: "bot" })).json()) as {
      conversation: Conversation;
    };
    expect(back.conversation.mode).toBe("bot");
    expect(back.conversation.assignedAgent).toBeUndefined();
    await simulate(customer, "how much is delivery to Yaba?");
    await eventually(
      async () => (sentTo(customer).length === 3 ? true : undefined),
      3000,
      "the bot's answer",
    );
    // Nothing the customer wrote while a human had it was answered afterwards.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sentTo(customer)).toHaveLength(3);
  });

  it("asks for confirmation before an operator answers a conversation assigned to another", async () => {
    await admin.json("POST", "/api/v1/operators", {
      email: "chidi@shop.example",
      name: "Chidi",
      password: "shop agent password",
      grants: [{ tenantId: "shop", role: "agent" }],
    });
    const chidi = await logIn(running.consoleUrl, "chidi@shop.example", "shop agent password");
    const customer = "2348039990000";
    const { conversationKey } = await simulate(customer, "my order never reach");
    await eventually(async () =>
      (await admin.request("GET", `/api/v1/conversations/${encodeURIComponent(conversationKey)}`)).status ===
      200
        ? true
        : undefined,
    );
    expect((await act(conversationKey, "takeover")).status).toBe(200);
    const path = `/api/v1/conversations/${encodeURIComponent(conversationKey)}/reply`;
    const refused = await chidi.request("POST", path, { text: "I fit help" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: "SS_CONSOLE_NOT_ASSIGNED" });
    const confirmed = await chidi.request("POST", path, { text: "I fit help", confirm: true });
    expect(confirmed.status).toBe(202);
    // Assignment moves only when someone says so.
    expect((await detail(conversationKey)).conversation.assignedAgentName).toBe("Ada Admin");
    // Any operator of the tenant sees who can be assigned, and assignment is explicit.
    const assignable = await chidi.json<{ items: { id: string; name: string }[] }>(
      "GET",
      "/api/v1/tenants/shop/operators",
    );
    expect(assignable.items.map((operator) => operator.name).sort()).toEqual(["Ada Admin", "Chidi"]);
    const chidiId = assignable.items.find((operator) => operator.name === "Chidi")?.id;
    const assigned = await act(conversationKey, "assign", { operatorId: chidiId });
    expect(((await assigned.json()) as { conversation: Conversation }).conversation.assignedAgentName).toBe(
      "Chidi",
    );
    const nobody = await act(conversationKey, "assign", { operatorId: null });
    expect(
      ((await nobody.json()) as { conversation: Conversation }).conversation.assignedAgent,
    ).toBeUndefined();
    expect((await act(conversationKey, "assign", { operatorId: "not-an-operator" })).status).toBe(404);
  });

  it("keeps internal notes apart from the customer's messages, and marks a conversation read when opened", async () => {
    const customer = "2348035550000";
    const { conversationKey } = await simulate(customer, "where my refund");
    await eventually(async () =>
      (await admin.request("GET", `/api/v1/conversations/${encodeURIComponent(conversationKey)}`)).status ===
      200
        ? true
        : undefined,
    );
    // The bot's answer first, so the count below can only move if the note were sent.
    await eventually(async () => (sentTo(customer).length >= 1 ? true : undefined), 3000, "the answer");
    const sentBefore = sentTo(customer).length;
    const noted = await act(conversationKey, "notes", { text: "Refund ticket R-1042 opened" });
    expect(noted.status).toBe(201);
    const now = await detail(conversationKey);
    expect(now.notes[0]).toMatchObject({ text: "Refund ticket R-1042 opened", operatorName: "Ada Admin" });
    expect(now.messages.some((message) => message.text === "Refund ticket R-1042 opened")).toBe(false);
    expect(sentTo(customer)).toHaveLength(sentBefore);

    expect((await detail(conversationKey)).conversation.unread).toBe(true);
    expect((await act(conversationKey, "seen")).status).toBe(204);
    expect((await detail(conversationKey)).conversation.unread).toBe(false);
    const unread = await admin.json<{ items: Conversation[] }>("GET", "/api/v1/conversations?view=unread");
    expect(unread.items.map((item) => item.conversationKey)).not.toContain(conversationKey);
  });

  it("absorbs the simulator's Meta chaos: a duplicate is answered once, an out-of-order pair is logged in Meta's order", async () => {
    const customer = "2348036660000";
    const { conversationKey, wamids } = await simulate(customer, "abeg una dey open for sunday", {
      duplicate: true,
    });
    expect(wamids).toHaveLength(1);
    await eventually(async () => (sentTo(customer).length >= 1 ? true : undefined), 3000, "the answer");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sentTo(customer)).toHaveLength(1);
    const inbound = (await detail(conversationKey)).messages.filter(
      (message) => message.direction === "inbound",
    );
    expect(inbound).toHaveLength(1);

    const other = "2348037770000";
    const pair = await simulate(other, "first part second part", { outOfOrder: true });
    expect(pair.wamids).toHaveLength(2);
    const logged = await eventually(
      async () => {
        const now = await detail(pair.conversationKey);
        const inbound = now.messages.filter((message) => message.direction === "inbound") as (Message & {
          metaTimestamp: number;
        })[];
        return inbound.length === 2 ? inbound : undefined;
      },
      3000,
      "both parts",
    );
    // The log keeps arrival order, newest first (the first part arrived last); Meta's timestamps keep the customer's.
    expect(logged.map((message) => message.text)).toEqual(["first part", "second part"]);
    const byMetaTime = [...logged]
      .sort((a, b) => a.metaTimestamp - b.metaTimestamp)
      .map((message) => message.text);
    expect(byMetaTime).toEqual(["first part", "second part"]);
  });

  it("lists a tenant's approved templates from the Graph API and searches by number, name and text", async () => {
    const templates = await admin.json<{
      items: { name: string; parameterCount: number }[];
      reason?: string;
    }>("GET", "/api/v1/tenants/shop/templates");
    expect(templates.reason).toBeUndefined();
    expect(templates.items.map((template) => template.name).sort()).toEqual([
      "conversation_followup",
      "order_update",
    ]);
    expect(templates.items.find((template) => template.name === "order_update")?.parameterCount).toBe(2);

    const byNumber = await admin.json<{ items: Conversation[] }>("GET", "/api/v1/conversations?q=234803123");
    expect(byNumber.items.map((item) => item.conversationKey)).toEqual([`shop:${SHOP_NUMBER}:2348031234567`]);
    const byText = await admin.json<{ items: Conversation[] }>("GET", "/api/v1/conversations?q=REFUND");
    expect(byText.items.map((item) => item.conversationKey)).toContain(`shop:${SHOP_NUMBER}:2348035550000`);
    const byName = await admin.json<{ items: Conversation[] }>(
      "GET",
      "/api/v1/conversations?q=simulated%204567",
    );
    expect(byName.items.map((item) => item.conversationKey)).toEqual([`shop:${SHOP_NUMBER}:2348031234567`]);
  });

  it("reports the dashboard's figures from the log and this process's metrics", async () => {
    const figures = await admin.json<{
      buckets: { inbound: number }[];
      totals: { inbound: number; turns: number; localTurns: number; outbound: number };
      latency: { webhookAckMs: { p50: number; p99: number } | null };
      handoffs: { waiting: number };
      queues: { name: string }[];
      metaSilent: { silent: boolean };
    }>("GET", "/api/v1/metrics?hours=6");
    expect(figures.buckets).toHaveLength(7);
    expect(figures.totals.inbound).toBeGreaterThanOrEqual(6);
    expect(figures.totals.turns).toBeGreaterThan(0);
    expect(figures.totals.outbound).toBeGreaterThan(0);
    expect(figures.latency.webhookAckMs?.p99).toBeGreaterThan(0);
    expect(figures.queues.map((queue) => queue.name).sort()).toEqual(["events", "outbound", "turns"]);
    expect(figures.metaSilent.silent).toBe(false);
  });
});
