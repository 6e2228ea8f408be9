/** `sms-emulator/client`: the typed API client on its own, without any of the emulator's server code. */

export { createClient } from './createClient.js';
export type {
  CallOptions,
  ClientOptions,
  EditInput,
  ListQuery,
  ScheduleInput,
  SendInput,
  SmsClient,
} from './createClient.js';
export { formatSchedule } from './scheduleTime.js';
export { SmsApiError } from './smsApiError.js';
export type { ClientErrorCode } from './smsApiError.js';
export type {
  Balance,
  DeleteResult,
  DeliveryNotification,
  ErrorBody,
  Link,
  MessageList,
  MessageStatus,
  ReplyNotification,
  SmsMessage,
  SmsReply,
  WebhookPayload,
} from './types.js';
