type Json = Record<string, unknown>;

function object(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(object) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function interactiveLines(interactive: Json): string[] {
  const action = object(interactive.action);
  const lines = [
    text(object(interactive.header).text),
    text(object(interactive.body).text),
    text(object(interactive.footer).text),
  ].filter((line) => line !== undefined);
  const buttons = list(action.buttons)
    .map((button) => text(object(button.reply).title))
    .filter((title) => title !== undefined);
  if (buttons.length > 0) lines.push(buttons.map((title) => `[${title}]`).join(" "));
  const rows = list(action.sections).flatMap((section) => list(section.rows).map((row) => text(row.title)));
  if (rows.length > 0) {
    lines.push(`[${text(action.button) ?? "Options"}]: ${rows.filter((r) => r !== undefined).join(" | ")}`);
  }
  return lines;
}

/**
 * What a customer would see of one message the bot sent (a Graph API send
 * body): the text, the buttons' titles, a list's rows; one line each.
 */
export function describeSentMessage(body: Json): string[] {
  const type = text(body.type) ?? "unknown";
  switch (type) {
    case "text":
      return [text(object(body.text).body) ?? ""];
    case "interactive":
      return interactiveLines(object(body.interactive));
    case "template":
      return [`(template "${text(object(body.template).name) ?? "?"}")`];
    case "reaction":
      return [`(reacted ${text(object(body.reaction).emoji) ?? ""})`];
    default: {
      const caption = text(object(body[type]).caption);
      return [`(${type}${caption === undefined ? "" : `: ${caption}`})`];
    }
  }
}
