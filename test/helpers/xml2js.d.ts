/** The one call of xml2js (a dependency of n8n-workflow) the tests use: a strict XML parse. */
declare module 'xml2js' {
	export function parseStringPromise(xml: string, options?: { strict?: boolean }): Promise<unknown>;
}
