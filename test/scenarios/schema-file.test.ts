/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: reads committed files, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { scenarioJsonSchema } from '../../runtime/scenarios/format/schema';

describe('scenario.schema.json', () => {
	it('is up to date with the zod schema (regenerate: npx tsx scripts/scenario-schema.ts)', () => {
		const file = path.resolve(__dirname, '../../runtime/scenarios/scenario.schema.json');
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(scenarioJsonSchema());
	});

	it('is what the examples point their editors at', () => {
		for (const name of ['order-status', 'lead-qualification', 'support']) {
			const doc = JSON.parse(
				readFileSync(path.resolve(__dirname, `../../examples/scenarios/${name}.json`), 'utf8'),
			) as { $schema: string };
			expect(path.resolve(__dirname, '../../examples/scenarios', doc.$schema)).toBe(
				path.resolve(__dirname, '../../runtime/scenarios/scenario.schema.json'),
			);
		}
	});
});
