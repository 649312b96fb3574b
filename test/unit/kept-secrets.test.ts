import { KeptSecrets } from '../../runtime/webhooks';

describe('signing secrets kept per credential', () => {
	it('reads once a minute, again on a refusal at most every 5 s, and apart per credential', async () => {
		let now = 0;
		const kept = new KeptSecrets(60_000, () => now, 5_000);
		const reads: string[] = [];
		let current = ['whsec_a'];
		const read = (key: string) => async () => {
			reads.push(key);
			return current;
		};
		expect(await kept.get('cred1', read('cred1'))).toEqual(['whsec_a']);
		current = ['whsec_b'];
		now = 4_999;
		// A refused delivery right after a read: nothing new to try, no read.
		expect(await kept.refresh('cred1', read('cred1'))).toBeNull();
		now = 59_999;
		// Within the minute: the kept secret, no read.
		expect(await kept.get('cred1', read('cred1'))).toEqual(['whsec_a']);
		// A delivery that did not match: read again, and the new secret is kept from then on.
		expect(await kept.refresh('cred1', read('cred1'))).toEqual(['whsec_b']);
		expect(await kept.get('cred1', read('cred1'))).toEqual(['whsec_b']);
		expect(await kept.get('cred2', read('cred2'))).toEqual(['whsec_b']);
		current = [];
		now = 59_999 + 60_000;
		// A minute after the last read, a removed secret is gone.
		expect(await kept.get('cred1', read('cred1'))).toEqual([]);
		expect(reads).toEqual(['cred1', 'cred1', 'cred2', 'cred1']);
	});

	it('answers a flood of refusals with one shared read, then none for 5 s', async () => {
		let now = 0;
		const kept = new KeptSecrets(60_000, () => now, 5_000);
		let reads = 0;
		let release: () => void = () => undefined;
		const read = async () => {
			reads++;
			await new Promise<void>((resolve) => (release = resolve));
			return ['whsec_new'];
		};
		await kept.get('cred', async () => ['whsec_old']);
		now = 10_000;
		const flood = Array.from({ length: 500 }, async () => await kept.refresh('cred', read));
		await Promise.resolve();
		release();
		const results = await Promise.all(flood);
		expect(results.every((r) => r?.[0] === 'whsec_new')).toBe(true);
		expect(reads).toBe(1);
		now = 14_999;
		const later = await Promise.all(
			Array.from({ length: 500 }, async () => await kept.refresh('cred', read)),
		);
		expect(later.every((r) => r === null)).toBe(true);
		expect(reads).toBe(1);
	});
});
