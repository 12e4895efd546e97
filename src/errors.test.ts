import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { agentErrorCatalog } from "./agent/index.js";
import { agentToolErrorCatalog } from "./agent/tools/index.js";
import { mainErrorCatalog } from "./app/index.js";
import { campaignErrorCatalog } from "./campaigns/index.js";
import { configErrorCatalog } from "./config/index.js";
import { consoleErrorCatalog } from "./console/index.js";
import { conversationErrorCatalog } from "./conversation/index.js";
import { demoErrorCatalog } from "./demo/index.js";
import { documentsErrorCatalog } from "./documents/index.js";
import type { ErrorCatalogEntry } from "./errors/index.js";
import { ingressErrorCatalog } from "./ingress/index.js";
import { mediaErrorCatalog } from "./media/index.js";
import { observabilityErrorCatalog } from "./observability/index.js";
import { outboundErrorCatalog } from "./outbound/index.js";
import { queueErrorCatalog } from "./queue/index.js";
import { speechErrorCatalog } from "./speech/index.js";
import { sqliteErrorCatalog } from "./sqlite/index.js";
import { storeErrorCatalog } from "./store/index.js";
import { visionErrorCatalog } from "./vision/index.js";
import { graphApiErrorCatalog, whatsappErrorCatalog } from "./whatsapp/index.js";

const catalogs: Record<string, ErrorCatalogEntry>[] = [
  campaignErrorCatalog,
  configErrorCatalog,
  mainErrorCatalog,
  whatsappErrorCatalog,
  graphApiErrorCatalog,
  mediaErrorCatalog,
  queueErrorCatalog,
  ingressErrorCatalog,
  outboundErrorCatalog,
  conversationErrorCatalog,
  agentToolErrorCatalog,
  agentErrorCatalog,
  storeErrorCatalog,
  sqliteErrorCatalog,
  demoErrorCatalog,
  observabilityErrorCatalog,
  consoleErrorCatalog,
  speechErrorCatalog,
  visionErrorCatalog,
  documentsErrorCatalog,
];
const entries = catalogs.flatMap((catalog) => Object.values(catalog));
const doc = readFileSync(new URL("../docs/errors.md", import.meta.url), "utf8");
const documented = new Map(
  [...doc.matchAll(/^\|\s*`(SS_[A-Z_]+)`\s*\|\s*(\d{3}|—)\s*\|/gm)].map(
    (match) => [match[1], match[2]] as const,
  ),
);

describe("error catalog", () => {
  it("uses unique SS_<AREA>_<WHAT> codes", () => {
    const codes = entries.map((entry) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^SS_[A-Z]+_[A-Z_]+$/);
  });

  it("is documented in docs/errors.md with the same HTTP status, and the doc lists nothing else", () => {
    for (const entry of entries) {
      expect(documented.get(entry.code), entry.code).toBe(
        entry.httpStatus === undefined ? "—" : String(entry.httpStatus),
      );
    }
    expect([...documented.keys()].sort()).toEqual(entries.map((entry) => entry.code).sort());
  });
});
