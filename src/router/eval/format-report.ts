import type { EvalReport } from "./evaluate.js";

const pct = (value: number): string => (Number.isNaN(value) ? "  –  " : `${(value * 100).toFixed(1)}%`);

/** A plain-text rendering of an evaluation report, for the terminal and bench/RESULTS.md. */
export function formatReport(title: string, report: EvalReport): string {
  const lines = [
    `## ${title}`,
    `messages ${report.messages}   coverage ${pct(report.coverage)}   precision of resolved ${pct(report.resolvedPrecision)}   ` +
      `false resolution (needs agent, n=${report.needsAgentMessages}) ${pct(report.falseResolutionRate)}   top-1 accuracy ${pct(report.top1Accuracy)}`,
    `latency per message: p50 ${report.latencyMs.p50.toFixed(4)} ms   p99 ${report.latencyMs.p99.toFixed(4)} ms   max ${report.latencyMs.max.toFixed(3)} ms`,
    "",
    "intent               support resolved precision  recall     F1",
  ];
  for (const [intent, scores] of Object.entries(report.perIntent)) {
    if (scores.support === 0 && scores.resolved === 0) continue;
    lines.push(
      `${intent.padEnd(20)} ${String(scores.support).padStart(7)} ${String(scores.resolved).padStart(8)} ${pct(scores.precision).padStart(9)} ${pct(scores.recall).padStart(7)} ${pct(scores.f1).padStart(6)}`,
    );
  }
  lines.push("", "language   messages  coverage  precision of resolved");
  for (const [language, scores] of Object.entries(report.perLanguage))
    lines.push(
      `${language.padEnd(10)} ${String(scores.messages).padStart(8)} ${pct(scores.coverage).padStart(9)} ${pct(scores.resolvedPrecision).padStart(9)}`,
    );
  const confusions = Object.entries(report.wrongAnswers)
    .flatMap(([gold, row]) => Object.entries(row).map(([outcome, count]) => ({ gold, outcome, count })))
    .sort((a, b) => b.count - a.count);
  lines.push("", "wrong local answers (gold → answered as: count)");
  if (confusions.length === 0) lines.push("  none");
  for (const { gold, outcome, count } of confusions.slice(0, 15))
    lines.push(`  ${gold} → ${outcome}: ${count}`);
  return lines.join("\n");
}
