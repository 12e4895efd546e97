/**
 * One message's distinct feature rows, without a Set per message: a stamp
 * per row marks the rows seen in the current message (both the intent model
 * and the language model score a message's rows once each).
 */
export interface DistinctRows {
  /** Starts a new message. */
  begin(): void;
  /** Adds a row unless this message already has it. */
  add(row: number): void;
  /** This message's rows, in the order first added (valid until the next begin). */
  rows(): Int32Array;
}

/** Distinct rows over a model of `rowCount` rows, reused from message to message. */
export function createDistinctRows(rowCount: number, initialCapacity: number): DistinctRows {
  const stamp = new Uint32Array(rowCount);
  let epoch = 0;
  let rows = new Int32Array(initialCapacity);
  let count = 0;
  return {
    begin() {
      epoch += 1;
      if (epoch === 0xffffffff) {
        stamp.fill(0);
        epoch = 1;
      }
      count = 0;
    },
    add(row) {
      if (stamp[row] === epoch) return;
      stamp[row] = epoch;
      if (count === rows.length) {
        const grown = new Int32Array(rows.length * 2);
        grown.set(rows);
        rows = grown;
      }
      rows[count] = row;
      count += 1;
    },
    rows() {
      return rows.subarray(0, count);
    },
  };
}
