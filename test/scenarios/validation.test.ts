import { compileScenario, formatIssue, ScenarioValidationError } from '../../runtime/scenarios';
import type { ScenarioDocument } from '../../runtime/scenarios/format/schema';
import { validateScenario, validateScenarioSet } from '../../runtime/scenarios/format/validate';
import { example, scenario } from './harness';

const problems = (doc: unknown) => validateScenario(doc).issues.map(formatIssue);

describe('scenario validation', () => {
	it('accepts the three examples', () => {
		for (const name of ['order-status', 'lead-qualification', 'support']) {
			expect(problems(example(name))).toEqual([]);
		}
	});

	it('reports every error at once, each with its JSON path', () => {
		const doc = {
			id: 'shop',
			version: 0,
			start: 'welcom',
			variables: ['email', 'email'],
			fallback: 'Sorry {{vars.emial}}',
			keywords: [{ match: { equals: 'stop', any: true } }],
			states: {
				welcome: {
					messages: ['Hi {{client.firstname}}!', 'Say {{foo.bar}}', 'Broken {{vars.email'],
					actions: [{ end: true }],
					on: [
						{ match: { equals: 'menu' }, target: 'menu' },
						{ match: { regex: '(' }, target: 'menu' },
						{ match: { number: { min: 5, max: 1 } }, target: 'menu' },
					],
				},
				menu: {
					on: [
						{ match: { contains: 'ship' }, target: 'shipping' },
						{ match: { contains: 'track' }, when: [{ var: 'order' }], target: 'shipping' },
						{ match: { startsWith: 'sh' }, target: 'shiping' },
						{
							match: { any: true },
							actions: [{ set: { plan: 'x' } }, { reply: 'ok', addTags: ['x'] }, { end: true }],
							target: 'menu',
						},
					],
				},
				shipping: { end: true, on: [{ match: { any: true } }], mesages: [] },
				ask_email: {
					capture: {
						into: 'email',
						check: 'emial',
						retry: 'Again? {{message.body}}',
						retries: 0,
						giveUp: { target: 'human' },
					},
					after: { minutes: -1 },
				},
				'bad.name': {},
			},
		};
		const states = 'states: welcome, menu, shipping, ask_email, bad.name';
		expect(problems(doc)).toEqual([
			'version: must be at least 1',
			'keywords[0].match: must have exactly one of: equals, contains, startsWith, regex, number, any',
			'states.menu.on[3].actions[1]: must have exactly one of: reply, addTags, removeTags, set, handoff, goto, end, findOrder',
			'states.shipping.mesages: is not a known field (did you mean "messages"?)',
			'states.ask_email.capture.check: must be "email", "phone", "number", "text", {"regex": …}, {"oneOf": […]} or {"number": {…}}',
			'states.ask_email.capture.retries: must be at least 1',
			'states.ask_email.after.minutes: must be more than 0',
			'states."bad.name": is not a valid name: must start with a letter and hold only letters, digits, "_" or "-" (at most 64)',
			'variables[1]: declares "email" twice',
			`start: no state named "welcom" (did you mean "welcome"?) (${states})`,
			'fallback: {{vars.emial}}: no variable named "emial"; declare it in "variables" or capture it (declared: email)',
			'states.welcome.messages[0]: {{client.firstname}}: the client has no field "firstname" (did you mean "first_name"?) (fields: id, first_name, last_name, email, phone, tags, custom_fields)',
			'states.welcome.messages[1]: {{foo.bar}}: unknown name "foo" (use client.…, vars.…, message.… or order.…)',
			'states.welcome.messages[2]: has "{{" without a closing "}}"',
			'states.welcome.actions[0]: "end" and "goto" belong on a transition (to end on entry, mark the state "end": true)',
			'states.welcome.on[1].match.regex: is not a valid regular expression (Invalid regular expression: /(/i: Unterminated group)',
			'states.welcome.on[2].match.number.max: must not be less than min (5)',
			'states.menu.on[1].when[0].var: no variable named "order"; declare it in "variables" or capture it',
			`states.menu.on[2].target: no state named "shiping" (did you mean "shipping"?) (${states})`,
			'states.menu.on[3].actions[0].set.plan: no variable named "plan"; declare it in "variables" or capture it',
			'states.menu.on[3].target: cannot be set when an action ends the conversation or jumps to another scenario',
			'states.shipping.on: cannot be used in an end state (the conversation is over)',
			'states.ask_email.capture.retry: {{message.body}}: the message has no field "body" (fields: text, channel, message_id, timestamp)',
			`states.ask_email.capture.giveUp.target: no state named "human" (${states})`,
			'states.ask_email.after: must send something, run actions or name a target',
		]);
	});

	it('fails on unknown template names when compiling, never at run time', () => {
		const doc = scenario({ a: { messages: ['Your code: {{vars.code}}'] } });
		expect(() => compileScenario(doc)).toThrow(ScenarioValidationError);
		try {
			compileScenario(doc);
		} catch (error) {
			expect((error as ScenarioValidationError).issues).toEqual([
				{
					path: 'states.a.messages[0]',
					message:
						'{{vars.code}}: no variable named "code"; declare it in "variables" or capture it (declared: none)',
				},
			]);
		}
		// Declared by a top-level list, or by a capture anywhere in the scenario.
		expect(problems({ ...doc, variables: ['code'] })).toEqual([]);
		expect(
			problems(
				scenario({
					a: { messages: ['Your code: {{vars.code}}'] },
					b: {
						capture: {
							into: 'code',
							check: 'text',
							retry: 'Again',
							retries: 1,
							giveUp: { target: 'a' },
						},
					},
				}),
			),
		).toEqual([]);
	});

	it('knows the Client resource fields, custom_fields paths and the message fields', () => {
		const ok = scenario({
			a: {
				messages: [
					'{{client.id}} {{client.first_name}} {{client.last_name}} {{client.email}} {{client.phone}} {{client.tags}}',
					'{{client.custom_fields.loyalty.tier}} {{ message.text }} {{message.channel}} {{client.first_name | friend}}',
				],
			},
		});
		expect(problems(ok)).toEqual([]);
		expect(
			problems(scenario({ a: { messages: ['{{client.email.domain}} {{vars}} {{}}'] } })),
		).toEqual([
			'states.a.messages[0]: {{client.email.domain}}: client.email has no fields',
			'states.a.messages[0]: {{vars}}: names no variable (write {{vars.NAME}})',
			'states.a.messages[0]: {{}} is not a name like {{vars.email}} or {{client.first_name}}',
		]);
	});

	it('says what is wrong with a document that is not a scenario at all', () => {
		expect(problems('hello')).toEqual(['(document): must be an object']);
		expect(problems({})).toEqual([
			'id: is required',
			'version: is required',
			'start: is required',
			'states: is required',
		]);
		expect(problems({ id: 'x', version: 1, start: 'a', states: {} })).toEqual([
			'states: must hold at least one state',
			'start: no state named "a" (states: )',
		]);
	});

	it('reports inside the one-key object the author meant', () => {
		const doc = scenario({
			a: {
				on: [
					{ match: { equals: ['yes', 5] }, actions: [{ addTags: [] }, { goto: {} }] },
					{ match: { number: { min: 'one' } }, when: [{ tag: '' }] },
				],
			},
		});
		expect(problems(doc)).toEqual([
			'states.a.on[0].match.equals[1]: must be text',
			'states.a.on[0].actions[0].addTags: must list at least one tag',
			'states.a.on[0].actions[1].goto.scenario: is required',
			'states.a.on[1].match.number.min: must be a number',
			'states.a.on[1].when[0].tag: must be a non-empty tag',
		]);
	});

	it('checks jumps between scenarios loaded together', () => {
		const main = validateScenario(
			scenario(
				{
					a: {
						on: [
							{ match: { equals: 'help' }, actions: [{ goto: { scenario: 'suport' } }] },
							{
								match: { equals: 'agent' },
								actions: [{ goto: { scenario: 'support', state: 'agnt' } }],
							},
						],
					},
				},
				{ id: 'main' },
			),
		);
		const support = validateScenario(example('support'));
		if (!main.ok || !support.ok) throw new Error('both are valid on their own');
		const docs: ScenarioDocument[] = [main.scenario, support.scenario];
		expect(validateScenarioSet(docs).map(formatIssue)).toEqual([
			'main: states.a.on[0].actions[0].goto.scenario: no scenario "suport" is loaded (did you mean "support"?) (loaded: main, support)',
			'main: states.a.on[1].actions[0].goto.state: scenario "support" has no state named "agnt" (did you mean "agent"?)',
		]);
		expect(validateScenarioSet([main.scenario, main.scenario]).map(formatIssue)).toContain(
			'main: id: is used by two scenarios',
		);
	});
});
