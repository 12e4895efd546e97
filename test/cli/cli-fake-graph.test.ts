import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { textTo } from "../support/fake-graph.js";

const bin = fileURLToPath(new URL("../../bin/sharpsharp.js", import.meta.url));

function run(args: string[]) {
  let output = "";
  const child = spawn(process.execPath, [bin, "fake-graph", ...args], {
    env: { PATH: process.env.PATH ?? "" },
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

describe("sharpsharp fake-graph (the built CLI)", () => {
  it("prints one line with its URL, applies its flags, and exits 0 on SIGTERM", async () => {
    const { child, output } = run([
      "--port",
      "0",
      "--token",
      "cli-token",
      "--mps",
      "2",
      "--pair-limit",
      "on",
    ]);
    try {
      await eventually(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(output()), 10_000);
      expect(output().trim().split("\n")).toHaveLength(1);
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output())?.[0] as string;
      const send = (token: string, to: string) =>
        fetch(`${url}/v25.0/106540352242922/messages`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(textTo(to)),
        });
      expect((await send("wrong", "+2348012345678")).status).toBe(401);
      const codes = [];
      for (const to of ["+2348012345678", "+2348098765432", "+2347031234567"]) {
        const response = await send("cli-token", to);
        codes.push(
          response.status === 200 ? 200 : ((await response.json()) as { error: { code: number } }).error.code,
        );
      }
      expect(codes).toEqual([200, 200, 130429]);
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });

  it("refuses bad flags with exit code 2, naming each", async () => {
    const { child, output } = run(["--port", "http", "--error-rate", "3", "--pair-limit", "maybe"]);
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(output()).toMatch(/--port: "http"/);
    expect(output()).toMatch(/--error-rate: "3"/);
    expect(output()).toMatch(/--pair-limit: "maybe"/);
  });
});
