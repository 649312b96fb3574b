/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { IDataObject, INode } from 'n8n-workflow';

import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { admin, useEmulator } from '../helpers/emulator';
import { outputOf, runWorkflow, type TestWorkflow } from '../helpers/n8n';
import { byId, chain, itemsNode, messagingBotNode, scenarioNode } from '../helpers/workflows';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-defaults-'));
afterAll(async () => {
	await closeSharedSqliteStores();
	rmSync(dir, { recursive: true, force: true });
});
const scenario = readFileSync(
	path.join(__dirname, '../../examples/scenarios/order-status.json'),
	'utf8',
);
/** Input items → the given steps in a row → a Scenario node with its Bot ID and Client ID left at their defaults. */
function inputStepsScenario(
	items: IDataObject[],
	steps: Array<{ name: string; parameters: INode['parameters'] }>,
	scenarioParameters: INode['parameters'],
): TestWorkflow {
	return chain([
		itemsNode(items),
		...steps.map((s, i) =>
			messagingBotNode(s.parameters, {
				id: `step${i}`,
				name: s.name,
				position: [200 * (i + 1), 0],
			}),
		),
		scenarioNode(scenarioParameters, { position: [200 * (steps.length + 1), 0] }),
	]);
}

// The Scenario node's Bot ID and Client ID, left at their defaults, after each kind of step the
// package has: the trigger's message (bot_id, client_id), a Client step (the client as `id`, no
// bot), a Send Message step (bot_id, client_id). Run by n8n-core's WorkflowExecute, which fills
// in the defaults as the editor does.
describe('Scenario node: the Bot ID and Client ID defaults work after any step', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	const credentials = () => ({
		messagingBotApi: { baseUrl: emulator().baseUrl, apiKey: emulator().apiKey },
	});
	let statePath: string;
	let files = 0;
	const options = () => ({ statePath });

	// A client the bot handed to a person: the conversation Release and Get Conversation find.
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
		statePath = path.join(dir, `state${++files}.sqlite`);
		for (const [id, text] of [
			['m1', 'hi'],
			['m2', 'human'],
		]) {
			const handled = await runWorkflow(
				inputStepsScenario(
					[{ message_id: id, bot_id: 'bot_shop', client_id: 'cl_linus', text }],
					[],
					{
						operation: 'handleMessage',
						scenario,
						options: options(),
					},
				),
				credentials(),
			);
			expect(handled.data.resultData.error).toBeUndefined();
		}
	});

	const getConversation = { operation: 'getConversation', scenario };

	it('after the trigger: the item has bot_id and client_id', async () => {
		const run = await runWorkflow(
			inputStepsScenario(
				[{ message_id: 'm3', bot_id: 'bot_shop', client_id: 'cl_linus', text: 'x' }],
				[],
				{
					...getConversation,
					options: options(),
				},
			),
			credentials(),
		);
		expect(outputOf(run, 'Scenario')[0].json).toMatchObject({
			bot_id: 'bot_shop',
			client_id: 'cl_linus',
			state: 'human',
		});
	});

	it('after Client: Get (the client as id, no bot): the bot from the nearest earlier step', async () => {
		const run = await runWorkflow(
			inputStepsScenario(
				[{ bot_id: 'bot_shop', client_id: 'cl_linus' }],
				[
					{
						name: 'Look Up Client',
						parameters: {
							resource: 'client',
							operation: 'get',
							clientId: byId('={{ $json.client_id }}'),
						},
					},
				],
				{ operation: 'release', scenario, options: options() },
			),
			credentials(),
		);
		expect(run.data.resultData.error).toBeUndefined();
		expect(outputOf(run, 'Look Up Client')[0].json).not.toHaveProperty('bot_id');
		expect(outputOf(run, 'Scenario')[0].json).toMatchObject({ released: true });
	});

	it('after Client: Update Tags then Bot: Send Message', async () => {
		const run = await runWorkflow(
			inputStepsScenario(
				[{ client_id: 'cl_linus' }],
				[
					{
						name: 'Tag',
						parameters: {
							resource: 'client',
							operation: 'updateTags',
							clientId: byId('={{ $json.client_id }}'),
							add: 'served',
						},
					},
					{
						name: 'Say Hello',
						parameters: {
							resource: 'bot',
							operation: 'sendMessage',
							botId: byId('bot_shop'),
							clientId: byId('={{ $json.id }}'),
							text: 'A colleague has finished; the bot is back.',
						},
					},
				],
				{ ...getConversation, options: options() },
			),
			credentials(),
		);
		expect(run.data.resultData.error).toBeUndefined();
		expect(outputOf(run, 'Scenario')[0].json).toMatchObject({
			bot_id: 'bot_shop',
			client_id: 'cl_linus',
			state: 'human',
		});
	});

	it('with no bot anywhere before it: a clear error naming Bot ID, nothing undefined', async () => {
		const run = await runWorkflow(
			inputStepsScenario(
				[{ id: 'cl_linus' }],
				[
					{
						name: 'Look Up Client',
						parameters: { resource: 'client', operation: 'get', clientId: byId('={{ $json.id }}') },
					},
				],
				{ operation: 'release', scenario, options: options() },
			),
			credentials(),
		);
		const error = run.data.resultData.error;
		expect(error?.message).toBe('Bot ID is empty');
		expect(error?.description).toMatch(/Map it in Bot ID/);
		expect(JSON.stringify(run.data.resultData)).not.toContain('undefined');
	});
});
