/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- dev tooling: prepares a stopped n8n's database, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import type { N8nOptions } from './n8n-process';

/**
 * Publishes imported workflows of a stopped n8n 2.x: what its `publish:workflow --id` does
 * (`WorkflowRepository.publishVersion`: active, and the current version made the active one), for
 * every workflow in one statement, on SQLite or on the PostgreSQL that DB_TYPE names.
 */
export function publishAll(o: N8nOptions, ids: string[]): void {
	if (ids.length === 0) return;
	const env = o.env ?? {};
	if (env.DB_TYPE === 'postgresdb') {
		const list = ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(', ');
		const sql = `WITH published AS (UPDATE workflow_entity SET active = true, "activeVersionId" = "versionId" WHERE id IN (${list}) RETURNING id) SELECT count(*) FROM published`;
		const count = execFileSync(
			'psql',
			[
				...['-h', env.DB_POSTGRESDB_HOST ?? '127.0.0.1', '-p', env.DB_POSTGRESDB_PORT ?? '5432'],
				...['-U', env.DB_POSTGRESDB_USER ?? 'postgres', '-d', env.DB_POSTGRESDB_DATABASE ?? 'n8n'],
				...['-v', 'ON_ERROR_STOP=1', '-tAc', sql],
			],
			{ encoding: 'utf8' },
		).trim();
		if (Number(count) !== ids.length)
			throw new Error(`Published ${count} of ${ids.length} workflows: some were not imported`);
		return;
	}
	const db = new DatabaseSync(path.join(o.userFolder, '.n8n', 'database.sqlite'));
	try {
		const publish = db.prepare(
			'UPDATE workflow_entity SET active = 1, activeVersionId = versionId WHERE id = ?',
		);
		for (const id of ids)
			if (Number(publish.run(id).changes) !== 1) throw new Error(`Workflow ${id} was not imported`);
	} finally {
		db.close();
	}
}
