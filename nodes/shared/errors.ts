import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

import {
	BadRequestError,
	BotInactiveError,
	InvalidClientIdError,
	MessagingBotError,
	NetworkError,
	NotFoundError,
	RateLimitedError,
	RepeatedPageError,
	ResponseFormatError,
	RetryAfterTooLongError,
	SendOutcomeUnknownError,
	ServerError,
	UnauthorizedError,
	ValidationError,
	type FieldIssue,
} from '../../runtime/api';

/** The label the user sees for each field the API checks (a path's first part). */
const LABELS: Record<string, string> = {
	bot_id: 'Bot',
	client_id: 'Client',
	scenario_id: 'Scenario ID',
	text: 'Text',
	from: 'From',
	to: 'To',
	email: 'Email',
	phone: 'Phone',
	first_name: 'First Name',
	last_name: 'Last Name',
	custom_fields: 'Custom Fields',
	tags: 'Tags',
	created_after: 'Created After',
	add: 'Tags to Add',
	remove: 'Tags to Remove',
	limit: 'Limit',
};

/** API names a rule may mention, in the words of the form. */
const RULE_WORDS: Array<[RegExp, string]> = [
	[/^or remove\b/, 'or Tags to Remove'],
	[/^or phone\b/, 'or Phone'],
	[/"to" date/, '"To" date'],
];

/** "Tags (entry 3) must be …": the field by its label, then the rule. */
function describeIssue(issue: FieldIssue): string {
	const [head, index] = issue.field.split('.');
	const label = LABELS[head] ?? head;
	const where = index !== undefined && /^\d+$/.test(index) ? ` (entry ${Number(index) + 1})` : '';
	const rule = RULE_WORDS.reduce((text, [from, to]) => text.replace(from, to), issue.rule);
	return `${label}${where} ${rule}`;
}

/** One issue: it is the title. Several: the title counts them and each is a bullet, once. */
function validationError(node: INode, error: ValidationError, itemIndex: number) {
	const lines = error.issues.map(describeIssue);
	if (lines.length === 1) {
		return new NodeOperationError(node, lines[0], {
			itemIndex,
			description: 'Nothing was sent. Correct the field and run the step again.',
		});
	}
	return new NodeOperationError(node, `${lines.length} fields need correcting`, {
		itemIndex,
		description: `${lines.map((l) => `• ${l}`).join('\n')}\nNothing was sent.`,
	});
}

const retries = (e: MessagingBotError) =>
	e.attempts > 1 ? ` The node tried ${e.attempts} times.` : '';

/** What a no-code user can do about each error of the service. */
function hintFor(error: MessagingBotError): string {
	if (error instanceof InvalidClientIdError) {
		return 'No client has this ID. Pick the client from the list, or take the ID from a Client: Get Many or Client: Create step.';
	}
	if (error instanceof UnauthorizedError) {
		return 'The service refused the API key. Open the Messaging Bot API credential, paste the key again from the dashboard (Settings, then API) and check "Send Key In".';
	}
	if (error instanceof BotInactiveError) {
		return 'This bot is switched off. Switch it on in the service dashboard (open the bot and set its status to Active), then run the workflow again.';
	}
	if (error instanceof NotFoundError) {
		return 'The bot or scenario does not exist. Pick it from the list instead of typing its ID.';
	}
	if (error instanceof RetryAfterTooLongError) {
		return "The service is refusing requests with this API key for a long while, perhaps because another system uses it heavily. Nothing was done; run the workflow again later, or ask the service about the key's limit.";
	}
	if (error instanceof RateLimitedError) {
		return `The service allows 100 requests a minute per API key, shared by every workflow using it.${retries(error)} Run fewer items at a time or spread the runs out.`;
	}
	if (error instanceof SendOutcomeUnknownError) {
		return "Open the client's message history (Client: Get Messages) to see whether it arrived before sending again.";
	}
	if (error instanceof ServerError) {
		return `The service had a problem on its side.${retries(error)} Try again in a few minutes.`;
	}
	if (error instanceof NetworkError) {
		return `Could not reach the service: it may be down, or the Base URL in the credential may be wrong.${retries(error)} Check the Base URL and that this n8n can reach it, or try again in a few minutes.`;
	}
	if (error instanceof RepeatedPageError) {
		return 'The service seems to ignore the offset of a page, so the results cannot be read to the end. Turn off Return All and set a Limit (up to 1,000) to get the first page.';
	}
	if (error instanceof ResponseFormatError) {
		return "The service answered in a shape this node does not know. Check that the Base URL in the credential points at the service's API (ending in /v1).";
	}
	if (error instanceof BadRequestError && error.details.length > 0) {
		return error.details.map(describeIssue).join('; ');
	}
	return "Check the node's parameters.";
}

/**
 * An error of a list in the panel (bots, clients): the list shows only the message, so the message
 * is the plain words a node's error gives as its hint ("Could not reach the service: it may be
 * down…"), not the technical cause.
 */
export function listError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof MessagingBotError && !(error instanceof ValidationError))
		return new NodeOperationError(node, hintFor(error), { description: error.message });
	return toNodeError(node, error, 0);
}

/** Turns any error of the runtime into the n8n error a user sees on the node, with a hint. */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof ValidationError) return validationError(node, error, itemIndex);
	if (error instanceof MessagingBotError) {
		const body: JsonObject = {
			name: error.name,
			status: error.status,
			message: error.serviceMessage ?? error.message,
			attempts: error.attempts,
		};
		if (error.code) body.code = error.code;
		return new NodeApiError(node, body, {
			message: error.message,
			description: hintFor(error),
			httpCode: error.status ? String(error.status) : undefined,
			itemIndex,
		});
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** The JSON of an error item when "Continue On Fail" is on; the hint travels on `item.error`. */
export function errorItem(error: NodeApiError | NodeOperationError): JsonObject {
	return { error: error.message };
}
