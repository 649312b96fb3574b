/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- build tooling, never loaded by n8n */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';

import { scenarioJsonSchema } from '../runtime/scenarios/format/schema';

/** Writes the scenario format's JSON Schema for editors; a test checks the committed file matches. */
export const SCHEMA_FILE = path.resolve(__dirname, '../runtime/scenarios/scenario.schema.json');

async function main(): Promise<void> {
	const config = await resolveConfig(SCHEMA_FILE);
	const json = await format(JSON.stringify(scenarioJsonSchema()), {
		...config,
		filepath: SCHEMA_FILE,
	});
	await writeFile(SCHEMA_FILE, json);
	process.stdout.write(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}\n`);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`${String(error)}\n`);
		process.exitCode = 1;
	});
}
