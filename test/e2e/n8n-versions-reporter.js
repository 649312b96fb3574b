/**
 * A jest reporter: after the run, one line saying which n8n versions the end-to-end tests ran
 * against and on which Node.js, read from the suites' titles ("in a real n8n 2.41.1 on Node.js
 * 24.9.0"), with how many of each one's tests passed.
 */
class N8nVersionsReporter {
	onRunComplete(_contexts, results) {
		const runs = new Map();
		for (const file of results.testResults) {
			for (const test of file.testResults) {
				const match = /in a real n8n (\d+\.\d+\.\d+ on Node\.js [\d.]+)/.exec(
					test.ancestorTitles[0] ?? '',
				);
				if (!match) continue;
				const run = runs.get(match[1]) ?? { tests: 0, passed: 0 };
				run.tests++;
				if (test.status === 'passed') run.passed++;
				runs.set(match[1], run);
			}
		}
		const said = [...runs].map(
			([version, r]) =>
				`${version} (${r.passed === r.tests ? `all ${r.tests} tests` : `${r.passed} of ${r.tests} tests`} passed)`,
		);
		process.stdout.write(
			`n8n versions run end to end: ${said.length > 0 ? said.join('; ') : 'none (no end-to-end test ran)'}\n`,
		);
	}
}

module.exports = N8nVersionsReporter;
