/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: reads the example files, never loaded by n8n */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { MessagingBotScenario } from '../../nodes/MessagingBotScenario/MessagingBotScenario.node';
import { validateScenario } from '../../runtime/scenarios/format/validate';

const root = path.resolve(__dirname, '../..');
const workflows = readdirSync(path.join(root, 'examples/workflows'))
	.filter((f) => f.endsWith('.json'))
	.map((f) => ({
		file: f,
		json: JSON.parse(readFileSync(path.join(root, 'examples/workflows', f), 'utf8')) as {
			id: string;
			nodes: Array<{ type: string; parameters: Record<string, unknown> }>;
		},
	}));
const declared = (
	JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } }
).n8n.nodes.map(
	(p) =>
		`n8n-nodes-messaging-bot.${path.basename(p, '.node.js').replace(/^./, (c) => c.toLowerCase())}`,
);

// The example workflows are what `npm start` and the end-to-end suite publish.
describe.each(workflows)('example workflow $file', ({ json }) => {
	it("uses only this package's node types, and n8n's own", () => {
		for (const node of json.nodes) {
			if (node.type.startsWith('n8n-nodes-messaging-bot.')) expect(declared).toContain(node.type);
			else expect(node.type).toMatch(/^n8n-nodes-base\./);
		}
	});

	it('embeds a valid scenario, identical to the one in examples/scenarios', () => {
		for (const node of json.nodes.filter(
			(n) => n.type === 'n8n-nodes-messaging-bot.messagingBotScenario',
		)) {
			const embedded = JSON.parse(String(node.parameters.scenario)) as { id: string };
			expect(validateScenario(embedded).ok).toBe(true);
			const original = JSON.parse(
				readFileSync(path.join(root, 'examples/scenarios', `${embedded.id}.json`), 'utf8'),
			) as Record<string, unknown>;
			delete original.$schema;
			expect(embedded).toEqual(original);
		}
	});
});

// The Scenario node starts from the order-status example, so the two cannot drift apart.
describe("the Scenario node's default scenario", () => {
	it('is examples/scenarios/order-status.json, less its editor-only $schema link', () => {
		const scenario = new MessagingBotScenario().description.properties.find(
			(p) => p.name === 'scenario',
		);
		const { $schema, ...example } = JSON.parse(
			readFileSync(path.join(root, 'examples/scenarios/order-status.json'), 'utf8'),
		) as Record<string, unknown>;
		expect($schema).toBeDefined();
		expect(JSON.parse(String(scenario?.default))).toEqual(example);
		expect(validateScenario(example).ok).toBe(true);
	});
});
