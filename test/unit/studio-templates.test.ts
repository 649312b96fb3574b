/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: reads the template files, never loaded by n8n */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { validateScenario } from '../../runtime/scenarios/format/validate';

/** The studio's New gallery: its own templates, each a valid scenario the runtime takes as it is. */
const dir = path.resolve(__dirname, '../../runtime/studio/templates');
const templates = readdirSync(dir).filter((f) => f.endsWith('.json'));

test('the gallery has its own booking and feedback bots beside the examples', () => {
	expect(templates.sort()).toEqual(['booking.json', 'feedback.json']);
});

test.each(templates)('%s is valid', (file) => {
	const result = validateScenario(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
	expect(result.issues).toEqual([]);
});
