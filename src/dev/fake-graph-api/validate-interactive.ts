import {
  InvalidParameter,
  isObject,
  type JsonObject,
  optionalString,
  requireArray,
  requireObject,
  requireString,
} from "./check.js";

// Interactive types Meta accepts besides button and list; only their `action` is checked.
const OTHER_INTERACTIVE_TYPES = new Set([
  "cta_url",
  "flow",
  "product",
  "product_list",
  "catalog_message",
  "location_request_message",
  "address_message",
  "call_permission_request",
  "voice_call",
]);

function checkButtons(interactive: JsonObject): void {
  requireString(requireObject(interactive, "body", "interactive['body']"), "text", "body['text']", 1024);
  optionalFooter(interactive);
  const action = requireObject(interactive, "action", "interactive['action']");
  const buttons = requireArray(action, "buttons", "action['buttons']");
  if (buttons.length < 1 || buttons.length > 3) {
    throw new InvalidParameter("Param action['buttons'] must have between 1 and 3 buttons");
  }
  const titles = new Set<string>();
  const ids = new Set<string>();
  buttons.forEach((button, index) => {
    const path = `action['buttons'][${index}]`;
    if (!isObject(button) || button.type !== "reply") {
      throw new InvalidParameter(`Param ${path}['type'] must be "reply"`);
    }
    const reply = requireObject(button, "reply", `${path}['reply']`);
    const id = requireString(reply, "id", `${path}['reply']['id']`, 256);
    const title = requireString(reply, "title", `${path}['reply']['title']`, 20);
    if (titles.has(title)) throw new InvalidParameter(`Buttons must have unique titles: "${title}" repeats`);
    if (ids.has(id)) throw new InvalidParameter(`Buttons must have unique ids: "${id}" repeats`);
    titles.add(title);
    ids.add(id);
  });
}

function checkList(interactive: JsonObject): void {
  requireString(requireObject(interactive, "body", "interactive['body']"), "text", "body['text']", 4096);
  optionalFooter(interactive);
  if (interactive.header !== undefined) {
    const header = requireObject(interactive, "header", "interactive['header']");
    if (header.type !== "text")
      throw new InvalidParameter("Param header['type'] must be \"text\" for a list");
    requireString(header, "text", "header['text']", 60);
  }
  const action = requireObject(interactive, "action", "interactive['action']");
  requireString(action, "button", "action['button']", 20);
  const sections = requireArray(action, "sections", "action['sections']");
  if (sections.length < 1 || sections.length > 10) {
    throw new InvalidParameter("Param action['sections'] must have between 1 and 10 sections");
  }
  let rowCount = 0;
  const rowIds = new Set<string>();
  sections.forEach((section, s) => {
    if (!isObject(section)) throw new InvalidParameter(`Param action['sections'][${s}] must be an object`);
    if (sections.length > 1) requireString(section, "title", `sections[${s}]['title']`, 24);
    else optionalString(section, "title", `sections[${s}]['title']`, 24);
    const rows = requireArray(section, "rows", `sections[${s}]['rows']`);
    rows.forEach((row, r) => {
      const path = `sections[${s}]['rows'][${r}]`;
      if (!isObject(row)) throw new InvalidParameter(`Param ${path} must be an object`);
      const id = requireString(row, "id", `${path}['id']`, 200);
      requireString(row, "title", `${path}['title']`, 24);
      optionalString(row, "description", `${path}['description']`, 72);
      if (rowIds.has(id)) throw new InvalidParameter(`Rows must have unique ids: "${id}" repeats`);
      rowIds.add(id);
    });
    rowCount += rows.length;
  });
  if (rowCount < 1 || rowCount > 10) {
    throw new InvalidParameter(`A list must have between 1 and 10 rows in total (it has ${rowCount})`);
  }
}

function optionalFooter(interactive: JsonObject): void {
  if (interactive.footer === undefined) return;
  requireString(requireObject(interactive, "footer", "interactive['footer']"), "text", "footer['text']", 60);
}

/** Checks an `interactive` object the way Meta does for reply buttons and lists. */
export function checkInteractive(body: JsonObject): void {
  const interactive = requireObject(body, "interactive", "interactive");
  const type = interactive.type;
  if (type === "button") checkButtons(interactive);
  else if (type === "list") checkList(interactive);
  else if (typeof type === "string" && OTHER_INTERACTIVE_TYPES.has(type)) {
    requireObject(interactive, "action", "interactive['action']");
  } else throw new InvalidParameter(`Param interactive['type'] is not a supported interactive type`);
}
