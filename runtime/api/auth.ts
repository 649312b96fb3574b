/** Which header carries the API key (docs/service-assumptions.md#a1). */
export type AuthHeader = 'bearer' | 'xApiKey' | 'both';

export function authHeaders(apiKey: string, mode: AuthHeader): Record<string, string> {
	const headers: Record<string, string> = {};
	if (mode === 'bearer' || mode === 'both') headers.Authorization = `Bearer ${apiKey}`;
	if (mode === 'xApiKey' || mode === 'both') headers['X-API-Key'] = apiKey;
	return headers;
}

/**
 * Normalises a base URL to end in /v1 and says what it changed, so the user learns the rule
 * instead of meeting a 404 later.
 */
export function normaliseBaseUrl(input: string): { url: string; hint?: string; error?: string } {
	const trimmed = input.trim().replace(/\/+$/, '');
	let parsed: URL;
	try {
		parsed = new URL(trimmed);
	} catch {
		return {
			url: trimmed,
			error: `"${input}" is not a URL; expected something like https://api.example.com/v1`,
		};
	}
	const local = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
	if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && local)) {
		return {
			url: trimmed,
			error: 'The base URL must use https (plain http is allowed only for localhost)',
		};
	}
	if (/\/v1$/.test(parsed.pathname)) return { url: trimmed };
	if (/\/v\d+$/.test(parsed.pathname)) {
		return {
			url: trimmed,
			error: `This package speaks API version v1; the base URL ends in ${parsed.pathname.split('/').pop()}`,
		};
	}
	return { url: `${trimmed}/v1`, hint: 'The base URL should end in /v1; it was added.' };
}
