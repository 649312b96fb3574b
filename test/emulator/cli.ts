/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- emulator CLI: reads argv and signals, never loaded by n8n */
import { parseArgs } from 'node:util';

import { PROFILES } from './profiles';
import { startEmulator } from './server';

/**
 * `npm run emulator -- --port N [--profile variant]`: prints one JSON line
 * {baseUrl, apiKey, adminUrl, profile} and serves until stopped.
 */
async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '0' },
			host: { type: 'string', default: '127.0.0.1' },
			'api-key': { type: 'string' },
			'rate-limit': { type: 'string' },
			'rate-window-ms': { type: 'string' },
			'time-scale': { type: 'string' },
			'delivery-timeout-ms': { type: 'string' },
			'no-seed': { type: 'boolean', default: false },
			profile: { type: 'string', default: 'default' },
			help: { type: 'boolean', short: 'h', default: false },
		},
	});
	if (values.help) {
		process.stdout.write(
			'Usage: npm run emulator -- [--port N] [--api-key KEY] [--rate-limit 100] [--rate-window-ms 60000]\n' +
				'                          [--time-scale 1] [--delivery-timeout-ms 5000] [--no-seed]\n' +
				'                          [--profile default|variant]\n',
		);
		return;
	}
	const num = (name: string, v: string | undefined): number | undefined => {
		if (v === undefined) return undefined;
		const n = Number(v);
		if (!Number.isFinite(n) || n < 0)
			throw new Error(`--${name} must be a non-negative number, got "${v}"`);
		return n;
	};
	const profile = PROFILES.find((p) => p === values.profile);
	if (!profile) {
		throw new Error(`--profile must be one of ${PROFILES.join(', ')}, got "${values.profile}"`);
	}
	const emulator = await startEmulator({
		port: num('port', values.port),
		host: values.host,
		apiKey: values['api-key'],
		rateLimit: num('rate-limit', values['rate-limit']),
		rateWindowMs: num('rate-window-ms', values['rate-window-ms']),
		timeScale: num('time-scale', values['time-scale']),
		deliveryTimeoutMs: num('delivery-timeout-ms', values['delivery-timeout-ms']),
		seed: !values['no-seed'],
		profile,
	});
	process.stdout.write(
		`${JSON.stringify({ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, adminUrl: emulator.adminUrl, profile })}\n`,
	);
	const stop = () => {
		void emulator.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error: Error) => {
	process.stderr.write(`emulator: ${error.message}\n`);
	process.exit(1);
});
