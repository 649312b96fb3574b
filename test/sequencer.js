/**
 * Longest suites first, so neither of the two workers idles at the end while the other runs a
 * ten-minute end-to-end suite alone. A clean clone has no timings in jest's cache (jest then
 * orders by file size, which puts the short, large unit files first); these are seconds measured on
 * two cores, re-measured when a suite changes much. Unlisted files follow in jest's own order.
 */
const Sequencer = require('@jest/test-sequencer').default;

const SECONDS = {
	'queue-kill.e2e.test.ts': 335,
	'queue-pause.e2e.test.ts': 300,
	'kill.e2e.test.ts': 290,
	'redis-prefix.e2e.test.ts': 175,
	'store-faults.e2e.test.ts': 160,
	'n8n1.e2e.test.ts': 155,
	'hostile-doors.e2e.test.ts': 155,
	'queue-budget.e2e.test.ts': 155,
	'budget.e2e.test.ts': 155,
	'shared-conversations.e2e.test.ts': 150,
	'postgres-restart.e2e.test.ts': 135,
	'queue-redis-loss.e2e.test.ts': 125,
	'queue-mode.e2e.test.ts': 105,
	'analytics-kill.e2e.test.ts': 100,
	'n8n.e2e.test.ts': 95,
	'versions.e2e.test.ts': 85,
	'reorder-gap.e2e.test.ts': 80,
	'own-port.e2e.test.ts': 65,
	'scenario-diagram.test.ts': 40,
};

class LongestFirst extends Sequencer {
	sort(tests) {
		const ordered = super.sort(tests);
		const weight = (t) => SECONDS[t.path.split('/').pop()] ?? 0;
		return [...ordered].sort((a, b) => weight(b) - weight(a));
	}
}

module.exports = LongestFirst;
