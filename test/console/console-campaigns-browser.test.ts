import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser.js";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type ConsoleGateway,
  startConsoleGateway,
} from "../support/console-harness.js";

/** Screenshots of each run, for people to look at (CI keeps the folder); never compared. */
const ARTIFACTS = join(process.cwd(), "test-artifacts", "console");
const BODY = "Hi {{1}}, {{2}} off everything today only!";

const csvOf = (numbers: string[]) =>
  Buffer.from(["wa_id,1,2", ...numbers.map((n, i) => `${n},Customer ${i + 1},20%`)].join("\n"));

/** Quiet hours from an hour ago to two hours ahead in Lagos (the recipients' default zone): now is quiet. */
function quietNow(): { start: string; end: string } {
  const hour = Number(
    new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Lagos", hour: "2-digit", hourCycle: "h23" }).format(
      Date.now(),
    ),
  );
  const clock = (h: number) => `${String((h + 24) % 24).padStart(2, "0")}:00`;
  return { start: clock(hour - 1), end: clock(hour + 2) };
}

// On a developer's machine without Debian's chromium this skips; under CI it must run.
describe.skipIf(!browserAvailable && process.env.CI !== "true")(
  "the console's campaigns page in a real browser",
  () => {
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

    const templateSendsTo = (numbers: string[]) =>
      numbers.map((to) => running.fake.fake.messages({ to }).filter((m) => m.type === "template").length);

    const logIn = async (page: Page) => {
      await page.goto("/");
      await page.getByLabel("Email").fill(ADMIN_EMAIL);
      await page.getByLabel("Password").fill(ADMIN_PASSWORD);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.getByRole("tab", { name: "Needs a human" }).waitFor();
    };
    /** From the navigation to a filled "New campaign" form for the shop. */
    const fillForm = async (page: Page, name: string, csv: Buffer) => {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" }).click();
      await page.getByLabel("Tenant").selectOption("shop");
      await page.getByRole("link", { name: "New campaign" }).click();
      await page.getByLabel("Campaign name").fill(name);
      await page.getByLabel("Template name").fill("december_sale");
      await page.getByLabel("Category").selectOption("marketing");
      await page.getByLabel("Body text").fill(BODY);
      await page.getByLabel("Audience (CSV file)").setInputFiles({
        name: "customers.csv",
        mimeType: "text/csv",
        buffer: csv,
      });
    };
    const stateOf = (page: Page) => page.getByTestId("campaign-state");
    const statValue = (page: Page, label: string) =>
      page
        .locator(".stat", { has: page.locator(".stat-label", { hasText: new RegExp(`^${label}$`) }) })
        .locator(".stat-value");

    it("creates a campaign through the form from a CSV file, starts it, and shows it completed with its sent count", async () => {
      const numbers = ["2348110000001", "2348110000002", "2348110000003"];
      const page = await browser.newPage();
      await logIn(page);
      await fillForm(page, "Browser sale", csvOf(numbers));
      await page.getByText("customers.csv: 3 rows").waitFor();
      const campaignsLink = page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: "Campaigns" });
      expect(await campaignsLink.getAttribute("aria-current")).toBe("page");
      await page.getByRole("button", { name: "Create draft" }).click();

      await page.getByRole("heading", { name: "Browser sale" }).waitFor();
      await expect.poll(() => stateOf(page).textContent()).toBe("Draft");
      expect(templateSendsTo(numbers)).toEqual([0, 0, 0]);
      await page.getByRole("button", { name: "Start" }).click();
      // The page looks again by itself while the campaign runs.
      await expect.poll(() => stateOf(page).textContent(), { timeout: 15_000 }).toBe("Completed");
      await expect.poll(() => statValue(page, "Sent").textContent(), { timeout: 5_000 }).toBe("3");
      expect(templateSendsTo(numbers)).toEqual([1, 1, 1]);
      expect(await page.getByRole("button", { name: /^(Start|Pause|Resume|Cancel campaign)$/ }).count()).toBe(
        0,
      );
      await page.getByRole("figure", { name: "Sent per minute" }).waitFor();

      await page.getByRole("link", { name: "All campaigns of shop" }).click();
      const item = page.getByTestId("campaign-item").filter({ hasText: "Browser sale" });
      await expect.poll(() => item.getByTestId("campaign-state").textContent()).toBe("Completed");
      await page.close();
    }, 60_000);

    it("shows the API's refusal of a bad audience in the form, and creates nothing", async () => {
      const page = await browser.newPage();
      await page.goto("/#/inbox");
      await fillForm(page, "Bad rows", csvOf(["2348110000011", "12ab"]));
      await page.getByRole("button", { name: "Create draft" }).click();
      const alert = page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/row 3: wa_id "12ab".*SS_CAMPAIGN_INVALID/);
      await page.getByRole("heading", { name: "New campaign for shop" }).waitFor();
      await page.goto("/#/campaigns/shop");
      await page.getByTestId("campaign-item").first().waitFor();
      expect(await page.getByTestId("campaign-item").filter({ hasText: "Bad rows" }).count()).toBe(0);
      await page.close();
    }, 30_000);

    it("pauses a running campaign held by its quiet hours, offers Resume, and cancels it after a confirmation", async () => {
      const numbers = ["2348110000021", "2348110000022"];
      const quiet = quietNow();
      const page = await browser.newPage();
      await page.goto("/#/inbox");
      await fillForm(page, "Quiet sale", csvOf(numbers));
      await page.getByLabel("Send nobody a message during these hours").check();
      await page.getByLabel("From", { exact: true }).fill(quiet.start);
      await page.getByLabel("Until", { exact: true }).fill(quiet.end);
      await page.getByRole("button", { name: "Create draft" }).click();
      await page.getByText(`quiet hours ${quiet.start}–${quiet.end} (Africa/Lagos)`).waitFor();

      await page.getByRole("button", { name: "Start" }).click();
      await expect.poll(() => stateOf(page).textContent()).toBe("Running");
      await page.getByRole("button", { name: "Pause" }).click();
      await expect.poll(() => stateOf(page).textContent()).toBe("Paused");
      await page.getByRole("button", { name: "Resume" }).waitFor();
      expect(await page.getByRole("button", { name: "Pause" }).count()).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, "campaign-paused-desktop.png"), fullPage: true });

      await page.getByRole("button", { name: "Cancel campaign" }).click();
      await page.getByRole("button", { name: "Keep it" }).click();
      expect(await stateOf(page).textContent()).toBe("Paused");
      await page.getByRole("button", { name: "Cancel campaign" }).click();
      await page.getByRole("button", { name: "Yes, cancel it" }).click();
      await expect.poll(() => stateOf(page).textContent()).toBe("Cancelled");
      expect(await page.getByRole("button", { name: "Resume" }).count()).toBe(0);
      const skipped = page.locator(".hbar", { has: page.locator(".hbar-label", { hasText: /^cancelled$/ }) });
      await expect.poll(() => skipped.locator(".hbar-value").textContent()).toBe("2");
      // Quiet the whole time: nobody was sent it.
      expect(templateSendsTo(numbers)).toEqual([0, 0]);
      await page.close();
    }, 60_000);

    it("fits a phone and a desktop: the campaigns list and a report at 360 px and 1280 px", async () => {
      for (const [name, viewport] of [
        ["phone", { width: 360, height: 740 }],
        ["desktop", { width: 1280, height: 800 }],
      ] as const) {
        const page = await browser.newPage();
        await page.setViewportSize(viewport);
        await page.goto("/#/campaigns/shop");
        const item = page.getByTestId("campaign-item").filter({ hasText: "Browser sale" });
        await item.waitFor();
        const overflow = () =>
          page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
        expect(await overflow()).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(ARTIFACTS, `campaigns-${name}.png`), fullPage: true });
        await item.getByRole("link", { name: "Browser sale" }).click();
        await page.getByRole("figure", { name: "Sent per minute" }).waitFor();
        await page.waitForTimeout(300);
        expect(await overflow()).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(ARTIFACTS, `campaign-report-${name}.png`), fullPage: true });
        await page.close();
      }
    }, 60_000);
  },
);
