import type { OperatorStore } from "../store/index.js";

/** Operator ids to names, read once per request: lists name who is assigned and who wrote. */
export async function operatorNames(
  operators: OperatorStore,
): Promise<(id: string | undefined) => string | undefined> {
  const byId = new Map((await operators.listOperators()).map((operator) => [operator.id, operator.name]));
  return (id) => (id === undefined ? undefined : byId.get(id));
}
