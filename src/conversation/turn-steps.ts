import { TurnJournalError } from "./errors.js";
import type { StepOptions, TurnJournal, TurnSteps } from "./ports.js";

/**
 * The steps of one run of a journaled turn: a step an earlier run recorded
 * gives its recorded result; any other runs and is recorded before its
 * result is used. A step whose record fails fails the turn: a retry runs it
 * again, which for a side-effect tool is safe (its Idempotency-Key is the same).
 */
export function journaledSteps(
  journal: TurnJournal,
  conversationKey: string,
  turnId: string,
  recorded: ReadonlyMap<string, unknown>,
): TurnSteps {
  const known = new Map(recorded);
  return {
    async once<T>(step: string, run: () => Promise<T>, options?: StepOptions): Promise<T> {
      if (known.has(step)) return known.get(step) as T;
      const value = await run();
      try {
        await journal.record(conversationKey, turnId, step, value === undefined ? null : value, options);
      } catch (error) {
        throw new TurnJournalError(step, error);
      }
      known.set(step, value);
      return value;
    },
  };
}

/** Steps without a journal (a responder called by hand): every step runs. */
export const unjournaledSteps: TurnSteps = {
  once: (_step, run) => run(),
};
