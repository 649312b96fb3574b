import { Redis } from 'ioredis';

import { closeBudgets } from '../../runtime/api/budget';
import { apiCredential, useEmulator } from '../helpers/emulator';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { byId, itemsIntoMessagingBot } from '../helpers/workflows';

// The machine's Redis, in a database of this suite's own (emptied before each test).
const REDIS = { host: '127.0.0.1', port: 6379, database: 6 };
const send = { resource: 'bot', operation: 'sendMessage', botId: byId('bot_shop'), text: 'Hi' };
const withRedis = {
	credentials: {
		messagingBotApi: { id: 'a', name: 'API' },
		messagingBotRedisApi: { id: 'r', name: 'Redis' },
	},
};

/** The budget keys the shared request budget left in the suite's Redis database. */
async function budgetKeys(): Promise<string[]> {
	const redis = new Redis({ host: REDIS.host, port: REDIS.port, db: REDIS.database });
	try {
		return await redis.keys('messaging-bot:budget:*');
	} finally {
		await redis.quit();
	}
}

// Run with `flock /tmp/heavy.lock`: it uses the machine's Redis.
describe('the request budget shared through Redis (queue mode)', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	beforeEach(async () => {
		const redis = new Redis({ host: REDIS.host, port: REDIS.port, db: REDIS.database });
		await redis.flushdb();
		await redis.quit();
	});
	afterEach(async () => await closeBudgets());

	it('through the Messaging Bot Redis credential chosen on the node', async () => {
		const run = await runWorkflow(
			itemsIntoMessagingBot([{}], { ...send, clientId: byId('cl_ada') }, withRedis),
			{
				messagingBotApi: apiCredential(emulator(), { budgetScope: 'redisCredential' }),
				messagingBotRedisApi: REDIS,
			},
		);
		expect(run.data.resultData.error).toBeUndefined();
		expect(outputOf(run, 'Messaging Bot')).toHaveLength(1);
		expect(await budgetKeys()).toContainEqual(expect.stringMatching(/:window$/));
	});

	it('through the Redis typed in a credential saved before (the older fields still read)', async () => {
		const older = {
			budgetScope: 'redis',
			redisHost: REDIS.host,
			redisPort: REDIS.port,
			redisDatabase: REDIS.database,
		};
		const run = await runWorkflow(
			itemsIntoMessagingBot([{}], { ...send, clientId: byId('cl_ada') }),
			{ messagingBotApi: apiCredential(emulator(), older) },
		);
		expect(run.data.resultData.error).toBeUndefined();
		expect(await budgetKeys()).toContainEqual(expect.stringMatching(/:window$/));
	});

	it('says which credential is missing when the node has no Redis credential', async () => {
		const run = await runWorkflow(
			itemsIntoMessagingBot([{}], { ...send, clientId: byId('cl_ada') }),
			{ messagingBotApi: apiCredential(emulator(), { budgetScope: 'redisCredential' }) },
		);
		expect(run.data.resultData.error?.message).toBe(
			'Messaging Bot API credential: Request Budget is "Shared Through Redis", and this node has no Messaging Bot Redis credential',
		);
		expect(await budgetKeys()).toEqual([]);
	});
});
