import { describe, expect, it } from "vitest";
import { unscheduledConversationsIn } from "../../bench/ingress/claimable.js";
import { median, parseTable, summarize } from "../../bench/ingress/compare-summary.js";

describe("unscheduledConversationsIn", () => {
  it("reads the gauge's value, not one of a longer name, and nothing when it is absent", () => {
    const exposition = [
      "# HELP ss_queue_unscheduled_conversations Conversations with waiting messages and no due turn",
      "# TYPE ss_queue_unscheduled_conversations gauge",
      "ss_queue_unscheduled_conversations_other 7",
      "ss_queue_unscheduled_conversations 3",
    ].join("\n");
    expect(unscheduledConversationsIn(exposition)).toBe(3);
    expect(unscheduledConversationsIn("ss_queue_unscheduled_conversations 0\n")).toBe(0);
    expect(unscheduledConversationsIn("ss_queue_inbox_messages 5\n")).toBeUndefined();
  });
});

describe("compare-summary", () => {
  const row = (label: string, loop: string, claimable: number, cpu: number, check = "ok") =>
    [label, loop, claimable, claimable, 0, 1, 2, 0, check, cpu].join("\t");

  it("takes medians and the ratio to the naive design per round, and flags a failed check", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    const table = [
      row("baseline", "closed", 100, 200),
      row("ss", "closed", 150, 180),
      row("baseline", "closed", 200, 200),
      row("ss", "closed", 260, 160, "CHECK-FAILED"),
    ].join("\n");
    const rows = parseTable(table);
    expect(rows).toHaveLength(4);
    const text = summarize(rows);
    expect(text).toContain("per round 1.5, 1.3; median 1.4");
    expect(text).toContain("1 with a failed check or non-200");
  });
});

describe("cpu-profile-top", () => {
  it("sums self samples per function and per package or folder, idle apart, startup skipped", async () => {
    const { areaOf, summarize } = await import("../../bench/ingress/cpu-profile-top.js");
    const root = "/work/p";
    expect(areaOf("file:///work/p/node_modules/@pinojs/redact/index.js", root)).toBe("@pinojs/redact");
    expect(areaOf("file:///work/p/node_modules/fastify/lib/route.js", root)).toBe("fastify");
    expect(areaOf("file:///work/p/dist/src/ingress/webhook-route.js", root)).toBe("src/ingress");
    expect(areaOf("file:///work/p/bench/results/dist-before/src/ingress/x.js", root)).toBe("src/ingress");
    expect(areaOf("node:internal/crypto/hash", root)).toBe("(node internals)");
    const frame = (functionName: string, url = "", lineNumber = 0) => ({ functionName, url, lineNumber });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame("(idle)") },
        { id: 2, callFrame: frame("handler", "file:///work/p/dist/src/ingress/webhook-route.js", 97) },
        { id: 3, callFrame: frame("compile", "node:internal/modules/esm/utils", 1) },
      ],
      samples: [3, 3, 2, 2, 2, 1],
      timeDeltas: [100, 100, 1000, 100, 100, 100],
      startTime: 0,
      endTime: 2_000,
    };
    const summary = summarize(profile, 0.25, root);
    expect(summary.totalSamples).toBe(4);
    expect(summary.idleSamples).toBe(1);
    expect(summary.functions).toEqual([{ name: "handler dist/src/ingress/webhook-route.js:98", samples: 3 }]);
    expect(summary.areas).toEqual([{ name: "src/ingress", samples: 3 }]);
  });
});
