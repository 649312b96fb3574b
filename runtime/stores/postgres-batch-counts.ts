import { incrementsJson, quote } from './counter-json';
import type { CounterIncrements } from './types';

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
 * Migration 4 (BATCH_COUNTED_FUNCTION): the counts travel apart from the writes, as mb_batch_counted's
 * second argument, so the server reads them without taking each write (its record, a kilobyte or
 * more) out of the batch's JSON again, twice; mb_batch stays for a process not yet upgraded.
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

/**
 * mb_batch with the counts apart: `p_counts` holds, per write that counts, its place in `p_ops`
 * (`n`), when it wrote (`t`), the counters' namespace (`s`) and its hashes (`h`, as mb_write's
 * p_counts); those of the writes whose answer is a version are summed and upserted as mb_batch does.
 */
export const BATCH_COUNTED_FUNCTION = (s: string) => `
CREATE FUNCTION ${s}.mb_batch_counted(p_ops jsonb, p_counts jsonb) RETURNS jsonb LANGUAGE plpgsql
SET search_path FROM CURRENT SET jit = off AS $$
DECLARE answers jsonb := mb_batch_each(p_ops); latest bigint;
BEGIN
	IF p_counts IS NULL THEN RETURN answers; END IF;
	SELECT max((w.value->>'t')::bigint) INTO latest FROM jsonb_array_elements(p_counts) AS w
	WHERE answers->>((w.value->>'n')::int) IS NOT NULL;
	IF latest IS NULL THEN RETURN answers; END IF;
	INSERT INTO counters AS c (ns, key, field, shard, value, expires)
	SELECT w.value->>'s', h.k, f.key, pg_backend_pid() % 64, sum(f.value::bigint), max(h.e)
	FROM jsonb_array_elements(p_counts) AS w,
		jsonb_to_recordset(w.value->'h') AS h(k text, i jsonb, e bigint), jsonb_each_text(h.i) AS f
	WHERE answers->>((w.value->>'n')::int) IS NOT NULL
	GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
	ON CONFLICT (ns, key, field, shard) DO UPDATE SET expires = excluded.expires,
		value = CASE WHEN c.expires <= latest THEN excluded.value ELSE c.value + excluded.value END;
	RETURN answers;
END $$;`;

/** mb_write's parameters: when it writes, the counters' namespace, the counts (postgres.ts's write). */
const NOW = 4;
const COUNTS_NS = 11;
const COUNTS = 12;

/** A write's counts as mb_write takes them (p_counts): built as text, with no object per hash. */
export function countsJson(hashes: readonly CounterIncrements[]): string {
	let json = '[';
	for (let i = 0; i < hashes.length; i++) {
		const h = hashes[i];
		json += `${i > 0 ? ',' : ''}{"k":${quote(h.key)},"i":${incrementsJson(h.incr)},"e":${h.expiresAt}}`;
	}
	return `${json}]`;
}

/**
 * A batch as mb_batch_counted takes it, as JSON text: the writes (each write's counts taken out of
 * its parameters) and the counts apart (null when none counts). The counts are JSON already: put
 * in as they are, not escaped into a string.
 */
export function batchJson(ops: ReadonlyArray<{ name: string; values: unknown[] }>): {
	ops: string;
	counts: string | null;
} {
	let json = '[';
	let counts = '';
	for (let i = 0; i < ops.length; i++) {
		const { name, values } = ops[i];
		const hashes = name === 'write' ? values[COUNTS] : null;
		json += i > 0 ? ',' : '';
		if (typeof hashes !== 'string') {
			json += JSON.stringify({ op: name, a: values });
			continue;
		}
		json += `{"op":"write","a":${JSON.stringify(values.slice(0, COUNTS))}}`;
		counts += `${counts ? ',' : ''}{"n":${i},"t":${Number(values[NOW])},"s":${JSON.stringify(values[COUNTS_NS])},"h":${hashes}}`;
	}
	return { ops: `${json}]`, counts: counts ? `[${counts}]` : null };
}
