export { BOT_NOT_FOUND, createBotsService } from './bots-service.ts';
export type {
  Bot,
  BotFields,
  BotRow,
  BotRun,
  BotRunRow,
  BotRunsByBot,
  BotsChange,
  BotsService,
  BotStatus,
  RunsQuery,
  SubscriptionStatus,
} from './types.ts';
