import { scopeOfParameters } from '../../nodes/shared/conversationScope';

describe('the scope a trigger works out from the Scenario node it feeds', () => {
	const scenario = JSON.stringify({ id: 'order-status', version: 1, start: 'a', states: {} });

	it("is the scenario's id, and the Conversation Scope when one is set", () => {
		expect(scopeOfParameters({ scenario })).toBe('@order-status');
		expect(scopeOfParameters({ scenario: JSON.parse(scenario) as { id: string } })).toBe('@order-status');
		expect(scopeOfParameters({ scenario, options: { conversationScope: ' test copy ' } })).toBe(
			'@order-status/test%20copy',
		);
		expect(scopeOfParameters({ scenario, options: { conversationScope: '' } })).toBe(
			'@order-status',
		);
	});

	it('is unknown before the node runs when an expression gives the scenario or the scope', () => {
		expect(scopeOfParameters({ scenario: '={{ $json.scenario }}' })).toBeUndefined();
		expect(
			scopeOfParameters({ scenario, options: { conversationScope: '={{ $env.STAGE }}' } }),
		).toBeUndefined();
		expect(scopeOfParameters({ scenario: '{ not json' })).toBeUndefined();
		expect(scopeOfParameters({ scenario: JSON.stringify({ id: '../x' }) })).toBeUndefined();
	});
});
