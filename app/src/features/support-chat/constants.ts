// Seed §4 and §9, word for word.
export const CHAT_GREETING = "Hello! Welcome to the product's support. How can I help you today?";
export const CHAT_ERROR_MESSAGE = 'Sorry, there was an error processing your request. Please try again.';
export const CHAT_INVALID_RESPONSE = 'Invalid response from API';

export const GREETING_DELAY_MS = 800;
export const SENT_STATUS_DELAY_MS = 300;
export const FOCUS_DELAY_MS = 300;
/** The assistant "types" for a random 1000–2999 ms. */
export const TYPING_DELAY_MIN_MS = 1000;
export const TYPING_DELAY_SPREAD_MS = 2000;

export const CHAT_EMOJIS = [
  { emoji: '😊', label: 'Smile' },
  { emoji: '👍', label: 'Thumbs up' },
  { emoji: '👎', label: 'Thumbs down' },
  { emoji: '❤️', label: 'Heart' },
  { emoji: '😂', label: 'Laughing' },
] as const;
