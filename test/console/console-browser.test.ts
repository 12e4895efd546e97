import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser.js";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type ConsoleGateway,
  eventually,
  startConsoleGateway,
} from "../support/console-harness.js";

/** Screenshots of each run, for people to look at (CI keeps the folder); never compared. */
const ARTIFACTS = join(process.cwd(), "test-artifacts", "console");

// On a developer's machine without Debian's chromium this skips; under CI it must run.
describe.skipIf(!browserAvailable && process.env.CI !== "true")("the console in a real browser", () => {
  let running: ConsoleGateway;
  let browser: BrowserContext;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    running = await startConsoleGateway();
    browser = await launchBrowser({ baseURL: running.consoleUrl });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  const logInAs = async (page: Page) => {
    await page.goto("/");
    await page.getByLabel("Email").fill(ADMIN_EMAIL);
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("tab", { name: "Needs a human" }).waitFor();
  };
  const textsTo = (to: string) =>
    running.fake.fake
      .messages({ to })
      .filter((message) => message.type !== "reaction")
      .map((message) => {
        const body = message.body as { text?: { body?: string }; interactive?: { body?: { text?: string } } };
        return body.text?.body ?? body.interactive?.body?.text ?? message.type;
      });

  it("takes a handoff from the simulator, answers it, gives it back, and the bot answers the next message", async () => {
    const inbox = await browser.newPage();
    await logInAs(inbox);
    const simulator = await browser.newPage();
    await simulator.goto("/#/simulator");
    await simulator.getByLabel("Tenant").selectOption("shop");
    const customer = "2348051234567";
    await simulator.getByLabel("Customer number").fill(customer);
    await simulator.getByLabel("Message").fill("I want to talk to a person");
    const sentAt = Date.now();
    await simulator.getByRole("button", { name: "Send", exact: true }).click();

    await inbox.getByRole("tab", { name: "Needs a human" }).click();
    const item = inbox.locator(
      `[data-testid="conversation-item"][data-key="shop:106540352242922:${customer}"]`,
    );
    await item.waitFor({ timeout: 2000 });
    const appearedAfterMs = Date.now() - sentAt;
    expect(appearedAfterMs).toBeLessThan(2000);
    process.stdout.write(`handoff visible in the inbox ${appearedAfterMs} ms after the simulator's send\n`);
    await eventually(
      async () => (textsTo(customer).length === 1 ? true : undefined),
      3000,
      "the handoff message",
    );

    await item.click();
    await inbox.getByRole("button", { name: "Take over" }).click();
    await inbox.getByRole("button", { name: "Return to bot" }).waitFor();
    await inbox.getByLabel("Reply").fill("Good evening, na Ada. Wetin happen?");
    await inbox.getByRole("button", { name: "Send reply" }).click();
    await eventually(
      async () => (textsTo(customer).length === 2 ? true : undefined),
      3000,
      "the operator's reply",
    );
    expect(textsTo(customer)[1]).toBe("Good evening, na Ada. Wetin happen?");
    await inbox
      .locator('[data-testid="message"][data-direction="outbound"]', { hasText: "na Ada" })
      .waitFor();
    await inbox.waitForTimeout(500);
    await inbox.screenshot({ path: join(ARTIFACTS, "conversation-desktop.png") });

    await inbox.getByRole("button", { name: "Return to bot" }).click();
    await inbox.getByRole("button", { name: "Take over" }).waitFor();
    await eventually(
      async () => {
        const answer = await fetch(`${running.consoleUrl}/api/v1/conversations?view=bot`, {
          headers: { cookie: (await browser.cookies()).map((c) => `${c.name}=${c.value}`).join("; ") },
        });
        const list = (await answer.json()) as { items: { conversationKey: string }[] };
        return list.items.some((entry) => entry.conversationKey.endsWith(customer)) ? true : undefined;
      },
      3000,
      "the conversation back with the bot",
    );
    await simulator.getByLabel("Message").fill("hello");
    await simulator.getByRole("button", { name: "Send", exact: true }).click();
    await eventually(
      async () => (textsTo(customer).length === 3 ? true : undefined),
      3000,
      "the bot's answer",
    );
    // The simulator shows the bot's answer too.
    await simulator
      .locator('[data-testid="message"][data-direction="outbound"]')
      .nth(2)
      .waitFor({ timeout: 3000 });
    await inbox.close();
    await simulator.close();
  }, 60_000);

  it("fits a phone and a desktop: screenshots of the inbox and the dashboard at 360 px and 1280 px", async () => {
    for (const [name, viewport] of [
      ["phone", { width: 360, height: 740 }],
      ["desktop", { width: 1280, height: 800 }],
    ] as const) {
      const page = await browser.newPage();
      await page.setViewportSize(viewport);
      await page.goto("/#/inbox");
      await page.getByRole("tab", { name: "All" }).click();
      await page.locator('[data-testid="conversation-item"]').first().waitFor();
      // Nothing wider than the screen: operators answer from phones.
      const overflow = await page.evaluate<number>(
        "document.documentElement.scrollWidth - window.innerWidth",
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(ARTIFACTS, `inbox-${name}.png`) });
      await page.goto("/#/dashboard");
      await page.getByRole("button", { name: "Refresh" }).waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
      await page.close();
    }
  }, 60_000);

  it("opens nothing without a credential: a fresh browser sees only the login form", async () => {
    const fresh = await launchBrowser({ baseURL: running.consoleUrl });
    try {
      const page = await fresh.newPage();
      await page.goto("/#/inbox");
      await page.getByRole("button", { name: "Log in" }).waitFor();
      expect(await page.locator('[data-testid="conversation-item"]').count()).toBe(0);
      const api = await page.evaluate(async () => (await fetch("/api/v1/conversations")).status);
      expect(api).toBe(401);
    } finally {
      await fresh.close();
    }
  }, 30_000);
});
