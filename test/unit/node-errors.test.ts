import { NodeApiError } from 'n8n-workflow';

import { toNodeError } from '../../nodes/shared/errors';
import {
	interpret,
	RateLimitedError,
	RepeatedPageError,
	ResponseFormatError,
	RetryAfterTooLongError,
	type MessagingBotError,
} from '../../runtime/api';
import { messagingBotNode } from '../helpers/workflows';

const node = messagingBotNode({});

const fromAnswer = (status: number, body: string): MessagingBotError => {
	const outcome = interpret(status, body);
	if (outcome.ok) throw new Error('read as a success');
	return outcome.error;
};

// What a no-code user reads on the node for the errors of an answer in an open shape.
describe('Messaging Bot node: error messages and hints', () => {
	it.each([
		[400, 'Invalid client_id', 'Invalid client_id', /No client has this ID/],
		[403, 'Bot is inactive', 'Bot is inactive', /switched off/],
		[401, '', 'Unauthorized', /refused the API key/],
		[500, '<html><body>oops</body></html>', 'Internal server error', /problem on its side/],
		[429, '', 'Rate limit exceeded', /100 requests a minute/],
	])('HTTP %i with the body %p reads "%s", with its hint', (status, body, message, hint) => {
		const error = toNodeError(node, fromAnswer(status, body), 0);
		expect(error.message).toBe(message);
		expect(error.description).toMatch(hint);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe(String(status));
	});

	it('a capped Retry-After says how long the service asked for and that nothing was done', () => {
		const cause = fromAnswer(429, 'Too Many Requests') as RateLimitedError;
		const error = toNodeError(node, new RetryAfterTooLongError(cause, 900_000, 300_000), 0);
		expect(error.message).toMatch(/asked to wait 15 min .* not sent again/);
		expect(error.description).toMatch(/Nothing was done; run the workflow again later/);
	});

	it('a repeated page names the operation and says how to get the first page', () => {
		const error = toNodeError(node, new RepeatedPageError('Client: Get Many', 1000, 1000), 0);
		expect(error.message).toMatch(/^Client: Get Many — the service returned the same page twice/);
		expect(error.description).toMatch(/Turn off Return All and set a Limit/);
	});

	it('an answer in an unknown shape points at the Base URL', () => {
		const error = toNodeError(node, new ResponseFormatError('not JSON', 200), 0);
		expect(error.description).toMatch(/Base URL/);
	});
});
