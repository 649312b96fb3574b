/**
 * Longest suites first, so neither of the two workers idles at the end while the other runs a
 * ten-minute end-to-end suite alone. A clean clone has no timings in jest's cache (jest then
 * orders by file size, which puts the short, large unit files first); these are seconds measured on
 * two cores, re-measured when a suite changes much. Unlisted files follow in jest's own order.
 */
const Sequencer = require('@jest/test-sequencer').default;

const SECONDS = {
	'queue-kill.e2e.test.ts': 650,
	'queue-mode.e2e.test.ts': 590,
	'kill.e2e.test.ts': 580,
	'queue-pause.e2e.test.ts': 400,
	'n8n1.e2e.test.ts': 360,
	'budget.e2e.test.ts': 310,
	'shared-conversations.e2e.test.ts': 305,
	'hostile-doors.e2e.test.ts': 280,
	'queue-redis-loss.e2e.test.ts': 275,
	'postgres-restart.e2e.test.ts': 260,
	'store-faults.e2e.test.ts': 225,
	'queue-budget.e2e.test.ts': 220,
	'reorder-gap.e2e.test.ts': 210,
	'own-port.e2e.test.ts': 180,
	'n8n.e2e.test.ts': 180,
	'analytics-kill.e2e.test.ts': 100,
};

class LongestFirst extends Sequencer {
	sort(tests) {
		const ordered = super.sort(tests);
		const weight = (t) => SECONDS[t.path.split('/').pop()] ?? 0;
		return [...ordered].sort((a, b) => weight(b) - weight(a));
	}
}

module.exports = LongestFirst;
