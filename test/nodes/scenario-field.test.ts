import type { IDataObject } from 'n8n-workflow';

import { outputOf, runWorkflow, type TestWorkflow } from '../helpers/n8n';
import { CAFE } from '../helpers/cafe-scenario';
import { itemsInto, scenarioNode } from '../helpers/workflows';

const pasted = JSON.stringify(CAFE, null, 2);

function testRun(scenario: unknown, items: IDataObject[] = [{}]): TestWorkflow {
	return itemsInto(
		items,
		scenarioNode({
			operation: 'testConversation',
			scenario: scenario as string,
			testMessages: 'hi\n4',
			testClient: JSON.stringify({ id: 'cl_t', first_name: 'Ada', tags: [] }),
		}),
	);
}
const credentials = {
	messagingBotApi: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', authHeader: 'bearer' },
};
const botLines = async (workflow: TestWorkflow) => {
	const run = await runWorkflow(workflow, credentials);
	const error = run.data.resultData.error;
	if (error) throw new Error(`${error.message}: ${error.description}`);
	const transcript = outputOf(run, 'Scenario')[0].json.transcript as Array<{
		from: string;
		text: string;
	}>;
	return transcript.filter((t) => t.from === 'bot').map((t) => t.text);
};
const failure = async (workflow: TestWorkflow) => {
	const run = await runWorkflow(workflow, credentials);
	return run.data.resultData.error as { message: string; description?: string | null };
};

describe('Scenario field: placeholders are never resolved by n8n', () => {
	it('reads the text as written when the field is in Expression mode', async () => {
		// Pasting into an emptied field switches it to Expression mode: the text starts with "=".
		expect(await botLines(testRun(`=${pasted}`))).toEqual([
			'Hi Ada! Welcome to Cafe Luna. For how many?',
			'Table for 4 noted!',
		]);
	});

	it('still resolves an expression that builds the whole scenario', async () => {
		const items = [{ scenario: CAFE }];
		expect(await botLines(testRun('={{ $json.scenario }}', items))).toEqual([
			'Hi Ada! Welcome to Cafe Luna. For how many?',
			'Table for 4 noted!',
		]);
		expect(await botLines(testRun('={{ JSON.stringify($json.scenario) }}', items))).toEqual([
			'Hi Ada! Welcome to Cafe Luna. For how many?',
			'Table for 4 noted!',
		]);
	});
});

describe('Scenario field: errors in the designer words', () => {
	it('lists each problem on its own line, places named as a designer says them', async () => {
		const broken = JSON.parse(pasted) as typeof CAFE & { states: Record<string, IDataObject> };
		(broken.states.hello.capture as { target: string }).target = 'notd';
		(broken.states.noted as IDataObject).question = 'oops';
		const error = await failure(testRun(JSON.stringify(broken)));
		expect(error.message).toBe('Scenario has 2 problems');
		const lines = String(error.description).split('<br>\n');
		expect(lines).toHaveLength(2);
		expect(lines).toEqual(
			expect.arrayContaining([
				expect.stringMatching(
					/^• "target" of "capture" of state hello: no state named "notd".*did you mean "noted"/,
				),
				expect.stringMatching(/^• "question" of state noted: is not a known field/),
			]),
		);
	});

	it('gives the line and column of a JSON syntax error, and what a stray comma needs', async () => {
		const text = pasted.replace('"end": true', '"end": true,');
		const error = await failure(testRun(text));
		const lines = text.split('\n');
		// The closing bracket after the comma: its line and column, counted from 1.
		const line = lines.findIndex((l) => l.includes('"end": true,')) + 2;
		const column = lines[line - 1].indexOf('}') + 1;
		expect(error.message).toBe(
			`Scenario is not valid JSON at line ${line}, column ${column}: a comma before a closing bracket; remove it`,
		);
	});

	it('says what to do with an empty field', async () => {
		const error = await failure(testRun('  '));
		expect(error.message).toBe('Scenario is empty');
		expect(error.description).toMatch(/^Paste a scenario there/);
	});
});
