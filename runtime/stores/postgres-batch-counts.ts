/**
 * Counting in the group commit (postgres-batch.ts): the counts of a batch's kept writes are added
 * up per hash and field and upserted once at the batch's end, in the same statement and so the
 * same transaction as the writes (both committed, or neither). Concurrent steps mostly count the
 * same few fields of one day's hash: each was an upsert per step, and the same counter row updated
 * again and again in one transaction (a longer chain of row versions at each); now it is one.
 *
 * A batched write carries its counts beside its parameters (`c`), not as mb_write's last one:
 * mb_batch_each (the former mb_batch, renamed) then writes it without counting, and mb_batch
 * counts the writes whose answer is a version. A batch built the older way (counts as the last
 * parameter, from a process not yet upgraded) is still counted, write by write, inside it.
 *
 * No JIT: the planner takes each set-returning function for a hundred rows, so it guesses a
 * million for the three nested here, and would compile the statement (tens of ms) at every batch.
 */
export const SUMMED_BATCH_FUNCTION = (s: string) => `
ALTER FUNCTION ${s}.mb_batch(jsonb) RENAME TO mb_batch_each;
CREATE FUNCTION ${s}.mb_batch(p_ops jsonb) RETURNS jsonb LANGUAGE plpgsql SET search_path FROM CURRENT
SET jit = off AS $$
DECLARE answers jsonb := mb_batch_each(p_ops); latest bigint;
BEGIN
	-- The latest moment a kept write counted at: a hash past its deadline then starts again.
	SELECT max((o.value->'a'->>4)::bigint) INTO latest FROM jsonb_array_elements(p_ops) WITH ORDINALITY AS o(value, n)
	WHERE o.value->>'c' IS NOT NULL AND answers->>(o.n::int - 1) IS NOT NULL;
	IF latest IS NULL THEN RETURN answers; END IF;
	INSERT INTO counters AS c (ns, key, field, shard, value, expires)
	SELECT o.value->'a'->>11, h.k, f.key, pg_backend_pid() % 64, sum(f.value::bigint), max(h.e)
	FROM jsonb_array_elements(p_ops) WITH ORDINALITY AS o(value, n),
		jsonb_to_recordset((o.value->>'c')::jsonb) AS h(k text, i jsonb, e bigint), jsonb_each_text(h.i) AS f
	WHERE o.value->>'c' IS NOT NULL AND answers->>(o.n::int - 1) IS NOT NULL
	GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
	ON CONFLICT (ns, key, field, shard) DO UPDATE SET expires = excluded.expires,
		value = CASE WHEN c.expires <= latest THEN excluded.value ELSE c.value + excluded.value END;
	RETURN answers;
END $$;`;

/** mb_write's parameter holding the counts (see postgres.ts's write). */
const COUNTS = 12;

/** A write as mb_batch takes it: its counts moved out of its parameters, to be summed. */
export function batchOp(op: string, a: unknown[]): { op: string; a: unknown[]; c?: unknown } {
	if (op !== 'write' || a[COUNTS] === null || a[COUNTS] === undefined) return { op, a };
	const rest = [...a];
	rest[COUNTS] = null;
	return { op, a: rest, c: a[COUNTS] };
}
