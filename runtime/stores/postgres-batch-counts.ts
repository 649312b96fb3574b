import { incrementsJson, quote } from './counter-json';
import type { CounterIncrements } from './types';

/**
 * Counting in the group commit (postgres-batch.ts): the counts of a batch's writes are summed per
 * hash and field in this process and upserted once at the batch's end, in the same statement and
 * so the same transaction as the writes (both committed, or neither).
 *
 * Summed here, the batch sends each counter once instead of once per write that counts it (a
 * step's ten-odd fields, mostly the same few of one day's hash): fewer bytes to build and send,
 * fewer for the server to parse. A sum is right only when every write that counts is kept: when
 * one loses its compare-and-set, mb_batch_summed raises SUMMED_LOST and the whole batch rolls back;
 * the batcher then runs each write alone, each with its own counts (mb_write's last parameter).
 *
 * The earlier forms stay for processes not yet upgraded: mb_batch (counts inside each write),
 * mb_batch_counted (each write's counts apart). No JIT: the planner takes each set-returning
 * function for a hundred rows and would compile the statement (tens of ms) at every batch.
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

/** The SQLSTATE of a summed batch in which a write that counts lost: run each write alone. */
export const SUMMED_LOST = 'MB412';

/**
 * mb_batch with the counts summed in this process: `p_counted` the places (from 0) in `p_ops` of
 * the writes that count, `p_latest` the latest moment one counted at, `p_sum` the sums, one entry
 * per hash ({"s": namespace, "k": key, "e": deadline, "i": {field: sum}}).
 */
export const SUMMED_COUNTS_FUNCTION = (s: string) => `
CREATE FUNCTION ${s}.mb_batch_summed(p_ops jsonb, p_counted int[], p_latest bigint, p_sum jsonb)
RETURNS jsonb LANGUAGE plpgsql SET search_path FROM CURRENT SET jit = off AS $$
DECLARE answers jsonb := mb_batch_each(p_ops);
BEGIN
	IF p_sum IS NULL THEN RETURN answers; END IF;
	IF EXISTS (SELECT FROM unnest(p_counted) AS n WHERE answers->>n IS NULL) THEN
		RAISE EXCEPTION 'a counted write lost its compare-and-set' USING ERRCODE = '${SUMMED_LOST}';
	END IF;
	INSERT INTO counters AS c (ns, key, field, shard, value, expires)
	SELECT h.s, h.k, f.key, pg_backend_pid() % 64, f.value::bigint, h.e
	FROM jsonb_to_recordset(p_sum) AS h(s text, k text, i jsonb, e bigint), jsonb_each_text(h.i) AS f
	ORDER BY 1, 2, 3
	ON CONFLICT (ns, key, field, shard) DO UPDATE SET expires = excluded.expires,
		value = CASE WHEN c.expires <= p_latest THEN excluded.value ELSE c.value + excluded.value END;
	RETURN answers;
END $$;`;

/** mb_write's parameters: when it writes, the counters' namespace, the counts (postgres.ts's write). */
const NOW = 4;
const COUNTS_NS = 11;
const COUNTS = 12;

/**
 * A write's counts as its parameter: kept as they are for the batch to sum, and turned into the
 * JSON mb_write takes (p_counts) only when the write goes alone (node-postgres calls toPostgres).
 */
export class WriteCounts {
	constructor(readonly hashes: readonly CounterIncrements[]) {}

	toPostgres(): string {
		return `[${this.hashes.map((h) => hashJson(h)).join(',')}]`;
	}
}

/** A hash's increments as the server reads them (and, in a batch's sum, its namespace). */
function hashJson(h: CounterIncrements, ns?: string): string {
	const where = ns === undefined ? '' : `"s":${quote(ns)},`;
	return `{${where}"k":${quote(h.key)},"i":${incrementsJson(h.incr)},"e":${h.expiresAt}}`;
}

/** One hash's sum over a batch. */
type Sum = { ns: string; key: string; expiresAt: number; incr: Map<string, number> };

/**
 * A batch as mb_batch_summed takes it (its arguments, in order); `counted` as PostgreSQL's text of
 * an int[] (`{0,3}`), which node-postgres would otherwise build element by element.
 */
export type SummedBatch = [ops: string, counted: string, latest: number | null, sum: string | null];

/** The batch's writes as JSON text, each write's counts taken out of its parameters and summed. */
export function batchJson(ops: ReadonlyArray<{ name: string; values: unknown[] }>): SummedBatch {
	let json = '[';
	let counted = '';
	let latest = 0;
	const sums: Sums = new Map();
	for (let i = 0; i < ops.length; i++) {
		const { name, values } = ops[i];
		const counts = name === 'write' ? values[COUNTS] : null;
		json += i > 0 ? ',' : '';
		if (!(counts instanceof WriteCounts)) {
			json += JSON.stringify({ op: name, a: values });
			continue;
		}
		// Without its counts (they go in the sum: null in their place, put back at once, no copy
		// made), and without a toJSON on them: JSON.stringify leaves its fast path for the whole
		// text when any object in it has one.
		values[COUNTS] = null;
		json += `{"op":"write","a":${JSON.stringify(values)}}`;
		values[COUNTS] = counts;
		counted += counted ? `,${i}` : `${i}`;
		latest = Math.max(latest, Number(values[NOW]));
		addUp(sums, values[COUNTS_NS] as string, counts.hashes);
	}
	return [`${json}]`, `{${counted}}`, counted ? latest : null, sumJson(sums)];
}

// Per namespace, then hash key: a key made by joining the two would be a new string at every
// write, hashed anew for the lookup (3 µs a message at 50 in flight, the most the batch added).
type Sums = Map<string, Map<string, Sum>>;

function addUp(sums: Sums, ns: string, hashes: readonly CounterIncrements[]): void {
	let ofNs = sums.get(ns);
	if (!ofNs) sums.set(ns, (ofNs = new Map()));
	for (const h of hashes) {
		let sum = ofNs.get(h.key);
		if (!sum) ofNs.set(h.key, (sum = { ns, key: h.key, expiresAt: h.expiresAt, incr: new Map() }));
		else if (h.expiresAt > sum.expiresAt) sum.expiresAt = h.expiresAt;
		const incr = sum.incr;
		for (const [field, n] of h.incr) incr.set(field, (incr.get(field) ?? 0) + n);
	}
}

function sumJson(sums: Sums): string | null {
	let json = '';
	for (const ofNs of sums.values())
		for (const sum of ofNs.values()) json += `${json ? ',' : '['}${hashJson(sum, sum.ns)}`;
	return json ? `${json}]` : null;
}
