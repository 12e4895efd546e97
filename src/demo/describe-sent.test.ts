import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { describeSentMessage } from "./describe-sent.js";

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../test/fixtures/meta/${name}`, import.meta.url), "utf8"));

describe("describeSentMessage (what the customer sees of a send)", () => {
  it("shows a text's body", () => {
    expect(describeSentMessage({ type: "text", text: { body: "How far?" } })).toEqual(["How far?"]);
  });

  it("shows reply buttons' titles under the body", () => {
    expect(describeSentMessage(fixture("send-request-interactive-buttons.json"))).toEqual([
      "Wetin you wan do?",
      "Reply STOP to opt out",
      "[Check status] [Report a problem] [Talk to a human]",
    ]);
  });

  it("shows a list's button and rows", () => {
    const lines = describeSentMessage(fixture("send-request-interactive-list.json"));
    expect(lines[0]).toBe("Support menu");
    expect(lines.at(-1)).toMatch(/^\[See options\]: Failed transfer \| /);
  });

  it("names other kinds of message", () => {
    expect(describeSentMessage({ type: "image", image: { caption: "receipt" } })).toEqual([
      "(image: receipt)",
    ]);
    expect(describeSentMessage({ type: "template", template: { name: "order_followup" } })).toEqual([
      '(template "order_followup")',
    ]);
  });
});
