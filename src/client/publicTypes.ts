/**
 * The client's public types, listed once: `sms-emulator/client` and the main entry both hand this list on whole, so
 * the two entries cannot drift apart. Values (createClient, SmsApiError, formatSchedule) are exported by name beside it.
 */

export type {
  CallOptions,
  ClientOptions,
  EditInput,
  ListQuery,
  ScheduleInput,
  SendInput,
  SmsClient,
} from './createClient.js';
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
