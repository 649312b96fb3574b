/** How long signing secrets read from a credential are kept. */
export const SECRETS_KEPT_MS = 60_000;

/**
 * How often a delivery the kept secrets refuse may read the credential again. Through n8n's
 * webhook URL each read costs n8n an expression isolate, and a refused request needs no secret to
 * send: without this bound a flood of bad signatures is a flood of reads.
 */
export const SECRETS_REREAD_MS = 5_000;

type Kept = { secrets: string[]; until: number; readAt: number; reading?: Promise<string[]> };

/**
 * Signing secrets kept per credential for a minute. A delivery that matches none of them may ask
 * for a fresh read (the secret may have changed since): one read per credential at a time, shared
 * by everyone who asks meanwhile, and at most one every SECRETS_REREAD_MS. So a new secret works
 * within seconds, a removed one is refused at most a minute later, and refused requests at any
 * rate cost no reads beyond that.
 */
export class KeptSecrets {
	private readonly kept = new Map<string, Kept>();

	constructor(
		private readonly keptMs = SECRETS_KEPT_MS,
		private readonly now: () => number = Date.now,
		private readonly rereadMs = SECRETS_REREAD_MS,
	) {}

	/** The kept secrets, read when none are kept or they are older than a minute. */
	async get(key: string, read: () => Promise<string[]>): Promise<string[]> {
		const kept = this.kept.get(key);
		if (kept && kept.until > this.now()) return kept.secrets;
		return await this.read(key, read);
	}

	/**
	 * Fresh secrets for a delivery the kept ones refused; null when they were read within the last
	 * SECRETS_REREAD_MS (nothing new to try), and a read under way is shared.
	 */
	async refresh(key: string, read: () => Promise<string[]>): Promise<string[] | null> {
		const kept = this.kept.get(key);
		if (kept?.reading) return await kept.reading;
		if (kept && this.now() - kept.readAt < this.rereadMs) return null;
		return await this.read(key, read);
	}

	private async read(key: string, read: () => Promise<string[]>): Promise<string[]> {
		const before = this.kept.get(key);
		if (before?.reading) return await before.reading;
		const reading = read();
		this.kept.set(key, { secrets: before?.secrets ?? [], until: 0, readAt: this.now(), reading });
		let secrets: string[] | undefined;
		try {
			secrets = await reading;
		} finally {
			// A failed read leaves what was kept before; the error goes to the caller.
			if (secrets === undefined) {
				if (before) this.kept.set(key, before);
				else this.kept.delete(key);
			}
		}
		this.kept.set(key, { secrets, until: this.now() + this.keptMs, readAt: this.now() });
		return secrets;
	}
}
