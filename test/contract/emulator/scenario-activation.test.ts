import { admin, call } from '../../helpers/emulator';
import { ISO, emulatorForSuite, expectError, expectInvalid } from './api-fixture';

// docs/service-assumptions.md#a7 (inactive bot refuses), #a8, #a14 (response, unknown scenario, empty body).
describe('emulator: PUT /bots/{id}/scenarios/{scenario_id}/activate', () => {
	const emulator = emulatorForSuite();

	it('activates a scenario of the bot and answers the A14 shape', async () => {
		const r = await call<{
			bot_id: string;
			scenario_id: string;
			status: string;
			activated_at: string;
		}>(emulator(), 'PUT', '/bots/bot_support/scenarios/support/activate');
		expect(r.status).toBe(200);
		expect(r.body.success).toBe(true);
		expect(Object.keys(r.body.data).sort()).toEqual([
			'activated_at',
			'bot_id',
			'scenario_id',
			'status',
		]);
		expect(r.body.data).toMatchObject({
			bot_id: 'bot_support',
			scenario_id: 'support',
			status: 'active',
		});
		expect(r.body.data.activated_at).toMatch(ISO);
	});

	it('accepts an empty JSON object as the body', async () => {
		const r = await call(emulator(), 'PUT', '/bots/bot_shop/scenarios/order_status/activate', {
			body: {},
		});
		expect(r.status).toBe(200);
	});

	it('answers 404 Scenario not found for a scenario the bot does not have', async () => {
		const e = emulator();
		expectError(
			await call(e, 'PUT', '/bots/bot_shop/scenarios/support/activate'),
			404,
			'not_found',
			'Scenario not found',
		);
		expectError(
			await call(e, 'PUT', '/bots/bot_shop/scenarios/nope/activate'),
			404,
			'not_found',
			'Scenario not found',
		);
	});

	it('answers 404 Bot not found for an unknown bot', async () => {
		expectError(
			await call(emulator(), 'PUT', '/bots/bot_nope/scenarios/welcome/activate'),
			404,
			'bot_not_found',
		);
	});

	it('answers 403 Bot is inactive for a switched-off bot', async () => {
		const e = emulator();
		expectError(
			await call(e, 'PUT', '/bots/bot_legacy/scenarios/welcome/activate'),
			403,
			'bot_inactive',
			'Bot is inactive',
		);
		await admin(e, 'PATCH', '/bots/bot_shop', { status: 'inactive' });
		expectError(
			await call(e, 'PUT', '/bots/bot_shop/scenarios/welcome/activate'),
			403,
			'bot_inactive',
			'Bot is inactive',
		);
	});

	it.each([
		['an object with a field', { rawBody: '{"force":true}' }],
		['an array', { rawBody: '[]' }],
		['null', { rawBody: 'null' }],
		['a string', { rawBody: '"now"' }],
	])('answers 400 to a non-empty body: %s', async (_name, { rawBody }) => {
		const r = await call(emulator(), 'PUT', '/bots/bot_shop/scenarios/welcome/activate', {
			rawBody,
			headers: { 'Content-Type': 'application/json' },
		});
		expectInvalid(r, 'body');
	});
});
