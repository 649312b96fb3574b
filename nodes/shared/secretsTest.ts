import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { secretsProblem } from './delivery';

type Secrets = { secret?: string; previousSecret?: string };

/**
 * The webhook credential's test (`testedBy` on both triggers). The service has no endpoint that
 * checks a secret, so this checks what can be checked here, the secrets' form, and says so: a
 * secret that differs from the dashboard's shows only when deliveries are refused (401).
 */
export async function messagingBotWebhookSecrets(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const secrets = (credential.data ?? {}) as Secrets;
	const problem = secretsProblem(secrets);
	if (problem) return { status: 'Error', message: problem };
	const previous = secrets.previousSecret
		? 'Previous Signing Secret differs from it and has no spaces at its ends either'
		: 'no Previous Signing Secret';
	return {
		status: 'OK',
		message: `Form checked: Signing Secret is set, with no spaces at its start or end; ${previous}. The service cannot be asked whether it is its secret: a delivery signed with another one is refused (401).`,
	};
}
