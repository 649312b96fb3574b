import {
	BadRequestError,
	BotInactiveError,
	InvalidClientIdError,
	interpret,
	NotFoundError,
	RateLimitedError,
	ServerError,
	UnauthorizedError,
	type MessagingBotError,
} from '../../runtime/api';

const html =
	'<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';

/** Bodies that say nothing readable: the spec's table speaks for them. */
const unreadable: Array<[string, string]> = [
	['an empty body', ''],
	['an HTML page', html],
	['JSON of an unknown form', '{"status":"nope","code":17}'],
	['a JSON array', '[1,2]'],
	['JSON null', 'null'],
	['a long text dump', 'x'.repeat(400)],
];

const failure = (status: number, body: string): MessagingBotError => {
	const outcome = interpret(status, body);
	if (outcome.ok) throw new Error(`HTTP ${status} was read as a success`);
	return outcome.error;
};

// docs/service-assumptions.md#a2: the shape of an error body is not shown, so any shape is read.
describe('error bodies of any shape', () => {
	const table: Array<[number, string, new (...args: never[]) => MessagingBotError]> = [
		[401, 'Unauthorized', UnauthorizedError],
		[403, 'Bot is inactive', BotInactiveError],
		[429, 'Rate limit exceeded', RateLimitedError],
		[500, 'Internal server error', ServerError],
		[502, 'Internal server error', ServerError],
		[404, 'Not found', NotFoundError],
		[400, 'Bad request', BadRequestError],
	];
	describe.each(unreadable)('%s', (_name, body) => {
		it.each(table)('HTTP %i gives the spec table message "%s"', (status, message, kind) => {
			const error = failure(status, body);
			expect(error).toBeInstanceOf(kind);
			expect(error).toMatchObject({ status, message, serviceMessage: undefined });
		});
	});

	it.each([
		[
			'the documented form',
			'{"success":false,"error":{"code":"bot_inactive","message":"Bot is inactive"}}',
		],
		['error as a string', '{"success":false,"error":"Bot is inactive"}'],
		['a top-level message', '{"message":"Bot is inactive","status":403}'],
		[
			'a problem document',
			'{"type":"about:blank","title":"Forbidden","status":403,"detail":"Bot is inactive"}',
		],
		['a list of errors', '{"errors":[{"message":"Bot is inactive","code":"x"}]}'],
		['a list of strings', '{"errors":["Bot is inactive"]}'],
		['a JSON string', '"Bot is inactive"'],
		['plain text', 'Bot is inactive\n'],
	])("reads the service's message from %s", (_name, body) => {
		const error = failure(403, body);
		expect(error).toBeInstanceOf(BotInactiveError);
		expect(error).toMatchObject({ message: 'Bot is inactive', serviceMessage: 'Bot is inactive' });
	});

	it("keeps the service's own wording where it has one", () => {
		expect(failure(429, 'Too Many Requests')).toMatchObject({
			name: 'RateLimitedError',
			message: 'Too Many Requests',
		});
		expect(failure(404, '{"title":"Not Found","detail":"Bot not found"}').message).toBe(
			'Bot not found',
		);
	});

	it('tells "Invalid client_id" from another 400 by its text or its code', () => {
		expect(failure(400, 'Invalid client_id')).toBeInstanceOf(InvalidClientIdError);
		expect(failure(400, '{"error":{"code":"invalid_client_id"}}')).toMatchObject({
			name: 'InvalidClientIdError',
			message: 'Invalid client_id',
		});
		const other = failure(
			400,
			'{"success":false,"error":{"code":"validation_error","message":"Invalid body","details":[{"field":"text","rule":"is required"}]}}',
		);
		expect(other).toBeInstanceOf(BadRequestError);
		expect((other as BadRequestError).details).toEqual([{ field: 'text', rule: 'is required' }]);
	});
});

// Success is the status's and `success`'s to decide, never the rest of the body.
describe('what counts as a success', () => {
	it.each([
		['no body', 204, ''],
		['an empty object', 200, '{}'],
		['no success member', 200, '{"data":{"a":1}}'],
		['success true without data', 200, '{"success":true}'],
		['plain text', 200, 'OK'],
		['an HTML page', 200, html],
		['201', 201, '{"success":true,"data":{}}'],
		['202', 202, ''],
	])('a 2xx with %s is a success', (_name, status, body) => {
		expect(interpret(status, body).ok).toBe(true);
	});

	it('a 2xx with success: false is a failure, with its message', () => {
		const error = failure(200, '{"success":false,"error":{"message":"Scenario is archived"}}');
		expect(error).toBeInstanceOf(BadRequestError);
		expect(error).toMatchObject({ status: 200, message: 'Scenario is archived' });
		expect(failure(200, '{"success":false}').message).toBe('The service reported a failure');
	});
});
