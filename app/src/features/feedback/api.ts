import type { FeedbackInput } from '../../../../shared/schemas/support';
import { supportApi } from '../../lib/support-client';

/** Sends feedback to the server (`support.feedback`), which forwards it; no credentials in the browser. */
export function sendFeedback(input: FeedbackInput) {
  return supportApi.feedback.mutate(input);
}
