import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { type CompletionJson, tool } from "../support/fake-llm.js";

const bin = fileURLToPath(new URL("../../bin/sharpsharp.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "sharpsharp-fake-llm-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}) {
  let output = "";
  const child = spawn(process.execPath, [bin, "fake-llm", ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr.on("data", (chunk) => {
    output += String(chunk);
  });
  return { child, output: () => output };
}

describe("sharpsharp fake-llm (the built CLI)", () => {
  it("prints one line with its URL, answers by the documented rules file and its key, and exits 0 on SIGTERM", async () => {
    // The rules example of docs/development.md ("Fake LLM"), so the documentation cannot drift from what runs.
    const readme = readFileSync(fileURLToPath(new URL("../../docs/development.md", import.meta.url)), "utf8");
    const example = /## Fake LLM[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const rules = join(dir, "rules.json");
    writeFileSync(rules, example ?? "");
    const { child, output } = run(["--port", "0", "--rules", rules, "--latency", "20-40"], {
      LLM_API_KEY: "cli-key",
    });
    try {
      await eventually(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(output()), 10_000);
      const lines = output().trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^sharpsharp fake LLM listening on (http:\/\/127\.0\.0\.1:\d+) \(set LLM_BASE_URL=\1\/v1; api key: required; rules: 3; latency: 20-40 ms;/,
      );
      expect(output()).not.toContain("cli-key");
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output())?.[0] as string;
      const chat = async (key: string, body: Record<string, unknown>) => {
        const response = await fetch(`${url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "m", ...body }),
        });
        return { status: response.status, json: (await response.json()) as CompletionJson };
      };
      const hello = { messages: [{ role: "user", content: "How far o" }] };
      expect((await chat("wrong", hello)).status).toBe(401);
      const greeted = await chat("cli-key", hello);
      expect(greeted.status).toBe(200);
      expect(greeted.json.choices?.[0]?.message.content).toBe("How far! Wetin I fit do for you?");

      const messages: unknown[] = [{ role: "user", content: "my order never deliver" }];
      const tools = [tool("get_order_status")];
      const call = (await chat("cli-key", { messages, tools })).json.choices?.[0]?.message;
      expect(call?.tool_calls?.[0]?.function).toEqual({
        name: "get_order_status",
        arguments: JSON.stringify({ query: "my order never deliver" }),
      });
      messages.push(call, { role: "tool", tool_call_id: call?.tool_calls?.[0]?.id, content: "on the way" });
      const final = await chat("cli-key", { messages, tools });
      expect(final.json.choices?.[0]?.message.content).toBe("Your order: on the way. Anything else?");
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });

  it("prints its flags with --help", async () => {
    const { child, output } = run(["--help"]);
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    expect(output()).toMatch(/--latency <ms\|min-max>/);
    expect(output()).toMatch(/--rules <file\.json>/);
  });

  it("refuses bad flags with exit code 2, naming each", async () => {
    const { child, output } = run([
      "--port",
      "http",
      "--latency",
      "fast",
      "--error-status",
      "418",
      "--rules",
      join(dir, "missing.json"),
    ]);
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(output()).toMatch(/--port: "http"/);
    expect(output()).toMatch(/--latency: "fast"/);
    expect(output()).toMatch(/--error-status: "418"/);
    expect(output()).toMatch(/--rules: cannot read ".*missing\.json" \(ENOENT\)/);
    const unknown = run(["--colour", "blue"]);
    const [unknownCode] = await once(unknown.child, "exit");
    expect(unknownCode).toBe(2);
    expect(unknown.output()).toMatch(/--colour/);
  });
});
