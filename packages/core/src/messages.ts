export type MessageRole = 'user' | 'assistant' | 'system';

export interface ConversationMessage {
  role: MessageRole;
  /** Optional speaker name: statements are attributed to this person instead of "the user". */
  name?: string;
  content: string;
}
