/** How long signing secrets read from a credential are kept. */
export const SECRETS_KEPT_MS = 60_000;

/**
 * Signing secrets kept per credential for a minute. Reading a credential through n8n's webhook
 * URL costs n8n a fresh expression isolate each time; a delivery that does not match the kept
 * secrets is checked again with `fresh` (the secret may have changed since), so a new secret works
 * at once and a removed one is refused at most a minute later.
 */
export class KeptSecrets {
	private readonly kept = new Map<string, { secrets: string[]; until: number }>();

	constructor(
		private readonly keptMs = SECRETS_KEPT_MS,
		private readonly now: () => number = Date.now,
	) {}

	async get(key: string, read: () => Promise<string[]>, fresh = false): Promise<string[]> {
		const kept = this.kept.get(key);
		if (!fresh && kept && kept.until > this.now()) return kept.secrets;
		const secrets = await read();
		this.kept.set(key, { secrets, until: this.now() + this.keptMs });
		return secrets;
	}
}
