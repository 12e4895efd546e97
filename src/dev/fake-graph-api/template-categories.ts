import { FAKE_TEMPLATES } from "./fake-templates.js";

/** A template's category as Meta writes it in `pricing.category` (lowercase). */
export type TemplateCategory = "marketing" | "utility" | "authentication";

/** The category of a template sent by name. */
export type TemplateCategoryOf = (templateName: string) => TemplateCategory;

const CATALOG: ReadonlyMap<string, TemplateCategory> = new Map(
  FAKE_TEMPLATES.map((template) => [template.name, template.category.toLowerCase() as TemplateCategory]),
);

/**
 * Looks a template's category up: `overrides` first, then the fake's own
 * template catalog (FAKE_TEMPLATES). An unknown name counts as marketing,
 * the category Meta's per-user cap and the strictest pricing apply to, so a
 * test that forgets to name its categories errs on the side of refusals.
 */
export function createTemplateCategories(
  overrides: Readonly<Record<string, TemplateCategory>> = {},
): TemplateCategoryOf {
  const given = new Map(Object.entries(overrides));
  return (templateName) => given.get(templateName) ?? CATALOG.get(templateName) ?? "marketing";
}
