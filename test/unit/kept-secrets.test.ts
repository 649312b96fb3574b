import { KeptSecrets } from '../../runtime/webhooks';

describe('signing secrets kept per credential', () => {
	it('reads once a minute, again when asked fresh, and apart per credential', async () => {
		let now = 0;
		const kept = new KeptSecrets(60_000, () => now);
		const reads: string[] = [];
		let current = ['whsec_a'];
		const read = (key: string) => async () => {
			reads.push(key);
			return current;
		};
		expect(await kept.get('cred1', read('cred1'))).toEqual(['whsec_a']);
		current = ['whsec_b'];
		now = 59_999;
		// Within the minute: the kept secret, no read.
		expect(await kept.get('cred1', read('cred1'))).toEqual(['whsec_a']);
		// A delivery that did not match: read again, and the new secret is kept from then on.
		expect(await kept.get('cred1', read('cred1'), true)).toEqual(['whsec_b']);
		expect(await kept.get('cred2', read('cred2'))).toEqual(['whsec_b']);
		current = [];
		now = 59_999 + 60_000;
		// A minute after the last read, a removed secret is gone.
		expect(await kept.get('cred1', read('cred1'))).toEqual([]);
		expect(reads).toEqual(['cred1', 'cred1', 'cred2', 'cred1']);
	});
});
