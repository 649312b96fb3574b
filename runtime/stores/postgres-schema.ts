import { StateStoreError } from './errors';
import {
	BATCH_COUNTED_FUNCTION,
	SUMMED_BATCH_FUNCTION,
	SUMMED_COUNTS_FUNCTION,
} from './postgres-batch-counts';

/**
 * The PostgreSQL store's tables, functions and statements, in a schema of the user's choice. The
 * schema's name is the only text put into SQL: it is checked against a plain identifier's form
 * and quoted (`quoteIdentifier`); every value travels as a parameter.
 *
 * Text columns that are sorted or compared by prefix use the "C" collation: byte order, the same
 * whatever the database's locale, and the order the other stores give.
 */
export const DEFAULT_SCHEMA = 'messaging_bot';

/** A schema name as n8n's users type one: letters, digits, underscores, not starting with a digit. */
export function checkSchemaName(schema: string): string {
	if (/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) return schema;
	throw new StateStoreError(
		`Schema "${schema}" is not a plain schema name: use 1 to 63 letters, digits or underscores, not starting with a digit (the default is ${DEFAULT_SCHEMA}).`,
	);
}

/** A double-quoted identifier, any double quote doubled (as PostgreSQL's quote_ident does). */
export function quoteIdentifier(name: string): string {
	return `"${checkSchemaName(name).replace(/"/g, '""')}"`;
}

/**
 * The migrations, in order; each runs once per schema, its number recorded in schema_version in
 * the same transaction. A new one is appended, never edited: a database may hold any earlier set.
 * `s` is the quoted schema.
 */
export const MIGRATIONS: ReadonlyArray<(s: string) => string> = [
	(s) => `
CREATE TABLE ${s}.claims (ns text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL, expires bigint NOT NULL, PRIMARY KEY (ns, id));
CREATE TABLE ${s}.records (ns text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, value text NOT NULL, version bigint NOT NULL, expires bigint, PRIMARY KEY (ns, key));
CREATE TABLE ${s}.dues (ns text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, due bigint NOT NULL, PRIMARY KEY (ns, key));
CREATE INDEX dues_by_time ON ${s}.dues (ns, due, key);
CREATE TABLE ${s}.inbox (seq bigserial PRIMARY KEY, ns text COLLATE "C" NOT NULL, queue text COLLATE "C" NOT NULL, value text NOT NULL, at bigint NOT NULL);
CREATE INDEX inbox_by_queue ON ${s}.inbox (ns, queue, seq);
-- Counters in shards (one per server connection, by its process id): concurrent steps that count
-- the same field add to different rows, so none waits for another's commit; a read sums them.
CREATE TABLE ${s}.counters (ns text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, field text COLLATE "C" NOT NULL, shard smallint NOT NULL, value bigint NOT NULL, expires bigint NOT NULL, PRIMARY KEY (ns, key, field, shard));
CREATE TABLE ${s}.active (ns text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, at bigint NOT NULL, expires bigint NOT NULL, PRIMARY KEY (ns, key));
CREATE INDEX active_by_time ON ${s}.active (ns, at);
${WRITE_FUNCTION(s)}
${ENQUEUE_FUNCTION(s)}`,
	// The loss marker (postgres-marker.ts): the store's id, and each process's latest write. An
	// append that answers a claimed id with NULL instead of an error: it can share a transaction.
	(s) => `
CREATE TABLE ${s}.marker (name text COLLATE "C" PRIMARY KEY, value text NOT NULL);
${APPEND_FUNCTION(s)}
${BATCH_FUNCTION(s)}`,
	// A batch's counts summed and written once (postgres-batch-counts.ts).
	(s) => SUMMED_BATCH_FUNCTION(s),
	// The batch's counts apart from its writes (postgres-batch-counts.ts).
	(s) => BATCH_COUNTED_FUNCTION(s),
	// The batch's counts summed in the process (postgres-batch-counts.ts).
	(s) => SUMMED_COUNTS_FUNCTION(s),
];

/**
 * A compare-and-set write with what rides on it (the due mark, the inbox entries it applied, its
 * counts), in one statement: one round trip, one transaction, all of it or none.
 * due_mode: 0 leaves the mark, 1 clears it, 2 sets it to p_due.
 */
const WRITE_FUNCTION = (s: string) => `
CREATE FUNCTION ${s}.mb_write(p_ns text, p_key text, p_value text, p_expected bigint, p_now bigint,
	p_expires bigint, p_due_mode int, p_due bigint, p_dq_ns text, p_dq_queue text, p_dq_seqs bigint[],
	p_count_ns text, p_counts jsonb) RETURNS bigint LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE v bigint;
BEGIN
	IF p_expected = 0 THEN
		-- A new key, or one whose record expired (its version still grows: a stale writer cannot win).
		INSERT INTO records AS r (ns, key, value, version, expires) VALUES (p_ns, p_key, p_value, 1, p_expires)
		ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, version = r.version + 1, expires = excluded.expires
		WHERE r.expires IS NOT NULL AND r.expires <= p_now RETURNING r.version INTO v;
	ELSE
		UPDATE records SET value = p_value, version = version + 1, expires = p_expires
		WHERE ns = p_ns AND key = p_key AND version = p_expected AND (expires IS NULL OR expires > p_now)
		RETURNING version INTO v;
	END IF;
	IF v IS NULL THEN RETURN NULL; END IF;
	IF p_due_mode = 1 THEN DELETE FROM dues WHERE ns = p_ns AND key = p_key;
	ELSIF p_due_mode = 2 THEN
		INSERT INTO dues (ns, key, due) VALUES (p_ns, p_key, p_due) ON CONFLICT (ns, key) DO UPDATE SET due = excluded.due;
	END IF;
	IF p_dq_seqs IS NOT NULL THEN
		DELETE FROM inbox WHERE ns = p_dq_ns AND queue = p_dq_queue AND seq = ANY (p_dq_seqs);
	END IF;
	IF p_counts IS NOT NULL THEN
		-- A hash past its deadline starts again from this write's increments.
		INSERT INTO counters AS c (ns, key, field, shard, value, expires)
		SELECT p_count_ns, h.k, f.key, pg_backend_pid() % 64, sum(f.value::bigint), max(h.e)
		FROM jsonb_to_recordset(p_counts) AS h(k text, i jsonb, e bigint), jsonb_each_text(h.i) AS f
		GROUP BY h.k, f.key ORDER BY h.k, f.key
		ON CONFLICT (ns, key, field, shard) DO UPDATE SET expires = excluded.expires,
			value = CASE WHEN c.expires <= p_now THEN excluded.value ELSE c.value + excluded.value END;
	END IF;
	RETURN v;
END $$;`;

/**
 * An inbox append and its claims: every id free, or the statement fails with SQLSTATE MB409 and
 * nothing is written (the claims made before the taken one are rolled back with it).
 */
const ENQUEUE_FUNCTION = (s: string) => `
CREATE FUNCTION ${s}.mb_enqueue(p_ns text, p_queue text, p_ids text[], p_value text, p_now bigint,
	p_claim_expires bigint) RETURNS bigint LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE claim_id text; n int; s bigint;
BEGIN
	FOREACH claim_id IN ARRAY p_ids LOOP
		INSERT INTO claims AS c (ns, id, expires) VALUES (p_ns, claim_id, p_claim_expires)
		ON CONFLICT (ns, id) DO UPDATE SET expires = excluded.expires WHERE c.expires <= p_now;
		GET DIAGNOSTICS n = ROW_COUNT;
		IF n = 0 THEN RAISE EXCEPTION 'claimed already' USING ERRCODE = 'MB409'; END IF;
	END LOOP;
	INSERT INTO inbox (ns, queue, value, at) VALUES (p_ns, p_queue, p_value, p_now) RETURNING seq INTO s;
	RETURN s;
END $$;`;

/**
 * mb_enqueue, answering NULL (its claims undone) where that raises MB409: a write batched with
 * others (postgres-batch.ts) must not abort their transaction.
 */
const APPEND_FUNCTION = (s: string) => `
CREATE FUNCTION ${s}.mb_append(p_ns text, p_queue text, p_ids text[], p_value text, p_now bigint,
	p_claim_expires bigint) RETURNS bigint LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
	RETURN mb_enqueue(p_ns, p_queue, p_ids, p_value, p_now, p_claim_expires);
EXCEPTION WHEN SQLSTATE 'MB409' THEN RETURN NULL;
END $$;`;

/**
 * Several writes in one statement (the group commit of postgres-batch.ts): one round trip and one
 * commit for all. Each is {"op": name, "a": [its parameters]}, as the statement of that name takes
 * them; the answer is the array of their results (a version, a seq, a count, or null).
 */
const BATCH_FUNCTION = (s: string) => `
CREATE FUNCTION ${s}.mb_batch(p_ops jsonb) RETURNS jsonb LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE op jsonb; a jsonb; r jsonb; n int; answers jsonb := '[]';
BEGIN
	FOR op IN SELECT value FROM jsonb_array_elements(p_ops) LOOP
		a := op->'a';
		r := NULL;
		CASE op->>'op'
		WHEN 'write' THEN
			r := to_jsonb(mb_write(a->>0, a->>1, a->>2, (a->>3)::bigint, (a->>4)::bigint, (a->>5)::bigint,
				(a->>6)::int, (a->>7)::bigint, a->>8, a->>9,
				CASE WHEN jsonb_typeof(a->10) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(a->10)::bigint) END,
				a->>11, (a->>12)::jsonb));
		WHEN 'enqueue' THEN
			r := to_jsonb(mb_append(a->>0, a->>1, ARRAY(SELECT jsonb_array_elements_text(a->2)), a->>3,
				(a->>4)::bigint, (a->>5)::bigint));
		WHEN 'noteActive' THEN
			INSERT INTO active AS t (ns, key, at, expires) VALUES (a->>0, a->>1, (a->>2)::bigint, (a->>3)::bigint)
			ON CONFLICT (ns, key) DO UPDATE SET at = excluded.at, expires = excluded.expires WHERE excluded.at > t.at;
		WHEN 'claim' THEN
			INSERT INTO claims AS c (ns, id, expires) VALUES (a->>0, a->>1, (a->>2)::bigint)
			ON CONFLICT (ns, id) DO UPDATE SET expires = excluded.expires WHERE c.expires <= (a->>3)::bigint;
			GET DIAGNOSTICS n = ROW_COUNT;
			r := to_jsonb(n);
		WHEN 'dequeue' THEN
			DELETE FROM inbox WHERE ns = a->>0 AND queue = a->>1
				AND seq = ANY (ARRAY(SELECT jsonb_array_elements_text(a->2)::bigint));
		ELSE RAISE EXCEPTION 'mb_batch: unknown operation %', op->>'op';
		END CASE;
		answers := answers || jsonb_build_array(r);
	END LOOP;
	RETURN answers;
END $$;`;

/** The SQLSTATE of an append refused because one of its ids was claimed. */
export const CLAIMED = 'MB409';

/** The version table, then every migration: the DDL a user may run by hand instead. */
export function postgresDdl(schema = DEFAULT_SCHEMA): string {
	const s = quoteIdentifier(schema);
	const steps = MIGRATIONS.map(
		(m, i) => `${m(s).trim()}\nINSERT INTO ${s}.schema_version (version) VALUES (${i + 1});`,
	);
	return [
		'BEGIN;',
		`CREATE SCHEMA IF NOT EXISTS ${s};`,
		`SET LOCAL search_path TO ${s};`,
		`${VERSION_TABLE(s)};`,
		...steps,
		'COMMIT;',
	].join('\n');
}

export const VERSION_TABLE = (s: string) =>
	`CREATE TABLE IF NOT EXISTS ${s}.schema_version (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;

/** The statements of every operation, on the quoted schema `s`, prepared by name per connection. */
export function statements(s: string) {
	const live = '(expires IS NULL OR expires > $3)';
	return {
		claim: `INSERT INTO ${s}.claims AS c (ns, id, expires) VALUES ($1, $2, $3)
			ON CONFLICT (ns, id) DO UPDATE SET expires = excluded.expires WHERE c.expires <= $4`,
		release: `DELETE FROM ${s}.claims WHERE ns = $1 AND id = $2`,
		read: `SELECT value, version FROM ${s}.records WHERE ns = $1 AND key = $2 AND ${live}`,
		write: `SELECT ${s}.mb_write($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) AS version`,
		remove: `WITH gone AS (DELETE FROM ${s}.records WHERE ns = $1 AND key = $2 AND version = $4 AND ${live} RETURNING key),
			unmarked AS (DELETE FROM ${s}.dues WHERE ns = $1 AND key IN (SELECT key FROM gone))
			SELECT count(*)::int AS n FROM gone`,
		setDue: `INSERT INTO ${s}.dues (ns, key, due) VALUES ($1, $2, $3)
			ON CONFLICT (ns, key) DO UPDATE SET due = excluded.due`,
		clearDue: `DELETE FROM ${s}.dues WHERE ns = $1 AND key = $2`,
		// A writer's mark set meanwhile lies ahead: the row, checked again after its lock, stays.
		dropDue: `DELETE FROM ${s}.dues WHERE ns = $1 AND key = $2 AND due <= $3
			AND NOT EXISTS (SELECT 1 FROM ${s}.records WHERE ns = $1 AND key = $2 AND ${live})`,
		due: `SELECT key FROM ${s}.dues WHERE ns = $1 AND due <= $2 ORDER BY due, key LIMIT $3`,
		enqueue: `SELECT ${s}.mb_append($1, $2, $3, $4, $5, $6) AS seq`,
		queued: `SELECT seq, value, at FROM ${s}.inbox WHERE ns = $1 AND queue = $2 ORDER BY seq LIMIT $3`,
		// The record (its row has no seq) and the inbox's first entries, from one snapshot.
		conversation: `SELECT NULL::bigint AS seq, value, version, NULL::bigint AS at FROM ${s}.records
				WHERE ns = $1 AND key = $2 AND ${live}
			UNION ALL (SELECT seq, value, NULL, at FROM ${s}.inbox WHERE ns = $4 AND queue = $5 ORDER BY seq LIMIT $6)`,
		// Several conversations at once (postgres-reads.ts), each read's rows numbered by its place.
		conversations: `SELECT q.n, c.seq, c.value, c.version, c.at
			FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) WITH ORDINALITY AS q(ns, key, ins, queue, lim, n),
			LATERAL (SELECT NULL::bigint AS seq, r.value, r.version, NULL::bigint AS at FROM ${s}.records r
					WHERE r.ns = q.ns AND r.key = q.key AND (r.expires IS NULL OR r.expires > $6)
				UNION ALL (SELECT i.seq, i.value, NULL, i.at FROM ${s}.inbox i WHERE i.ns = q.ins AND i.queue = q.queue
					ORDER BY i.seq LIMIT q.lim)) c`,
		// Each entry to one taker: a concurrent taker skips the rows this one holds.
		take: `DELETE FROM ${s}.inbox WHERE seq IN (SELECT seq FROM ${s}.inbox WHERE ns = $1 AND queue = $2
			ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING seq, value, at`,
		dequeue: `DELETE FROM ${s}.inbox WHERE ns = $1 AND queue = $2 AND seq = ANY ($3::bigint[])`,
		stalled: `SELECT queue FROM ${s}.inbox WHERE ns = $1 GROUP BY queue HAVING min(at) <= $2
			ORDER BY min(seq) LIMIT $3`,
		counters: `SELECT key, field, sum(value)::bigint AS value FROM ${s}.counters
			WHERE ns = $1 AND starts_with(key, $2) AND expires > $3 GROUP BY key, field ORDER BY key, field`,
		noteActive: `INSERT INTO ${s}.active AS a (ns, key, at, expires) VALUES ($1, $2, $3, $4)
			ON CONFLICT (ns, key) DO UPDATE SET at = excluded.at, expires = excluded.expires WHERE excluded.at > a.at`,
		active: `SELECT key FROM ${s}.active WHERE ns = $1 AND at >= $2 AND expires > $3
			ORDER BY at DESC, key LIMIT $4`,
		ping: 'SELECT 1',
		batch: `SELECT ${s}.mb_batch_summed($1::jsonb, $2::int[], $3::bigint, $4::jsonb) AS answers`,
		markerRead: `SELECT (SELECT value FROM ${s}.marker WHERE name = 'id') AS id,
			(SELECT value FROM ${s}.marker WHERE name = $1) AS mine,
			(SELECT value FROM ${s}.marker WHERE name = 'loss') AS loss`,
		// A loss found, told to every process; unless another process told it first (found after
		// this one's latest acknowledged write, $2): that one is the same loss, and is answered.
		markerShareLoss: `WITH put AS (INSERT INTO ${s}.marker AS m (name, value) VALUES ('loss', $1)
				ON CONFLICT (name) DO UPDATE SET value = excluded.value
				WHERE (m.value::json->>'foundAt')::bigint <= $2::bigint RETURNING value)
			SELECT coalesce((SELECT value FROM put), (SELECT value FROM ${s}.marker WHERE name = 'loss'), $1) AS loss`,
		markerInit: `WITH made AS (INSERT INTO ${s}.marker (name, value) VALUES ('id', $1) ON CONFLICT (name) DO NOTHING RETURNING value)
			SELECT coalesce((SELECT value FROM made), (SELECT value FROM ${s}.marker WHERE name = 'id')) AS id`,
		markerKeep: `INSERT INTO ${s}.marker (name, value) VALUES ('id', $1) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
		// What it replaces, read in the same statement: a table put back under this connection shows.
		// Never moved back: two stamps of one process committing out of order keep the later time.
		markerStamp: `WITH before AS (SELECT (SELECT value FROM ${s}.marker WHERE name = 'id') AS id,
				(SELECT value FROM ${s}.marker WHERE name = $1) AS mine),
			stamped AS (INSERT INTO ${s}.marker AS m (name, value) VALUES ($1, $2)
				ON CONFLICT (name) DO UPDATE SET value = greatest(m.value::bigint, excluded.value::bigint)::text)
			SELECT id, mine FROM before`,
		// Now and then: what expired goes, so the tables stay the size of what is live.
		sweep: `WITH a AS (DELETE FROM ${s}.claims WHERE expires <= $1),
			b AS (DELETE FROM ${s}.records WHERE expires IS NOT NULL AND expires <= $1),
			c AS (DELETE FROM ${s}.counters WHERE expires <= $1),
			d AS (DELETE FROM ${s}.dues d WHERE NOT EXISTS (SELECT 1 FROM ${s}.records r WHERE r.ns = d.ns AND r.key = d.key))
			DELETE FROM ${s}.active WHERE expires <= $1`,
	} as const;
}

export type StatementName = keyof ReturnType<typeof statements>;

/**
 * The writes sent through the group commit (postgres-batch.ts), each as mb_batch runs it, with
 * the rows its own statement would have answered.
 */
export const BATCHED: Readonly<
	Record<string, (answer: unknown) => { rows: Array<Record<string, unknown>>; rowCount: number }>
> = {
	write: (v) => ({ rows: [{ version: v }], rowCount: 1 }),
	enqueue: (seq) => ({ rows: [{ seq }], rowCount: 1 }),
	noteActive: () => ({ rows: [], rowCount: 0 }),
	claim: (n) => ({ rows: [], rowCount: Number(n) }),
	dequeue: () => ({ rows: [], rowCount: 0 }),
};
