/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: reads the README, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { statePathIn } from '../../runtime/stores/sqlite';
import { botsOf, demoGuide } from '../../scripts/lib/demo-guide';
import { exampleWorkflows } from '../../scripts/lib/demo-setup';

const addresses = {
	n8nUrl: 'http://127.0.0.1:5678',
	baseUrl: 'http://127.0.0.1:8080/v1',
	adminUrl: 'http://127.0.0.1:8080/_admin',
	apiKey: 'mb_test_key',
	secret: 'whsec_demo',
};

describe('npm start: what it prints', () => {
	it('each example bot workflow answers its own bot, and no two the same', () => {
		const bots = exampleWorkflows().map((w) => [w.id, botsOf(w)]);
		expect(bots).toEqual(
			expect.arrayContaining([
				['mbOrderStatusBot', ['bot_shop']],
				['mbFaqBot00000001', ['bot_support']],
			]),
		);
		const all = bots.flatMap(([, b]) => b as string[]);
		expect(new Set(all).size).toBe(all.length);
	});

	it('a curl line for each bot, the API key and the signing secret', () => {
		const lines = demoGuide(addresses);
		for (const bot of ['bot_shop', 'bot_support'])
			expect(
				lines.filter((l) => l.includes(`/inbound`) && l.includes(`"bot_id":"${bot}"`)),
			).toHaveLength(1);
		expect(lines).toContain(
			'API key:      mb_test_key (Messaging Bot API credential, Base URL http://127.0.0.1:8080/v1)',
		);
		expect(lines).toContain(
			'secret:       whsec_demo (Messaging Bot Webhook API credential, Signing Secret)',
		);
	});

	it("names the demo's state store, where its n8n keeps conversations, and how to read it", () => {
		const store = statePathIn('/tmp/demo');
		expect(store).toBe('/tmp/demo/.n8n/messaging-bot/state.sqlite');
		const lines = demoGuide({ ...addresses, studioUrl: 'http://127.0.0.1:5680/?token=t', store });
		expect(lines).toContain(`state store:  ${store}`);
		expect(lines.join('\n')).toContain(`npx messaging-bot-scenario stats --store ${store}`);
		expect(lines.join('\n')).toContain('with the traffic of the store below');
	});

	it("shows in the README the store the demo's n8n writes (its own user folder, not ~/.n8n)", () => {
		// npm start's user folder with the default cache (scripts/start.ts): beside the n8n it runs.
		const store = statePathIn('~/.cache/n8n-nodes-messaging-bot/demo');
		const readme = readFileSync(path.join(__dirname, '../../README.md'), 'utf8');
		expect(readme).toContain(`state store:  ${store}`);
		expect(readme).toContain(`npx messaging-bot-scenario stats --store ${store}`);
	});
});
