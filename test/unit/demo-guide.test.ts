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
});
