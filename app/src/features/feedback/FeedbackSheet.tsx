import { useId, useState, type FormEvent } from 'react';
import { Loader2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import {
  feedbackCategories,
  feedbackCategoryLabels,
  SIMPLE_EMAIL_PATTERN,
  SUPPORT_MESSAGES,
  type FeedbackCategory,
} from '../../../../shared/content/support';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetFooter,
  SheetHeader,
  SheetTitle,
} from '../../components/ui/sheet';
import { Textarea } from '../../components/ui/textarea';
import { sendFeedback } from './api';

export const FEEDBACK_SUCCESS = 'Thank you for your feedback!';
export const FEEDBACK_FAILURE = 'Failed to send feedback. Please try again.';

/** The 'Send Feedback' side sheet; loaded on first use (see FeedbackWidget). */
export default function FeedbackSheet({ open, onOpenChange: setOpen }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [category, setCategory] = useState<FeedbackCategory>('other');
  const [message, setMessage] = useState('');
  const [userEmail, setUserEmail] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const ids = { category: useId(), message: useId(), email: useId() };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // Same rules as the server's `feedbackInput` schema (shared/schemas/support.ts).
    const email = userEmail.trim();
    if (!message.trim()) {
      toast.error(SUPPORT_MESSAGES.feedbackRequired);
      return;
    }
    if (email && !SIMPLE_EMAIL_PATTERN.test(email)) {
      toast.error(SUPPORT_MESSAGES.invalidEmail);
      return;
    }
    setSubmitting(true);
    try {
      await sendFeedback({ message: message.trim(), category, userEmail: email });
      toast.success(FEEDBACK_SUCCESS);
      setMessage('');
      setUserEmail('');
      setCategory('other');
      setOpen(false);
    } catch (error) {
      console.error('Feedback failed', error);
      toast.error(FEEDBACK_FAILURE);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetContent side="right" className="w-full sm:max-w-md">
        <form onSubmit={onSubmit} noValidate className="flex h-full flex-col">
          <SheetHeader className="border-b">
            <SheetTitle>Send Feedback</SheetTitle>
            <SheetDescription>Found a bug or have an idea? Tell us, we read everything.</SheetDescription>
          </SheetHeader>
          <div className="flex flex-1 flex-col gap-5 overflow-y-auto p-4">
            <div className="grid gap-2">
              <Label htmlFor={ids.category}>Category</Label>
              <Select value={category} onValueChange={(v) => setCategory(v as FeedbackCategory)}>
                <SelectTrigger id={ids.category} className="w-full">
                  <SelectValue placeholder="Select category" />
                </SelectTrigger>
                <SelectContent>
                  {feedbackCategories.map((c) => (
                    <SelectItem key={c} value={c}>
                      {feedbackCategoryLabels[c]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="grid gap-2">
              <Label htmlFor={ids.message}>Message</Label>
              <Textarea
                id={ids.message}
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                placeholder="Your feedback..."
                className="min-h-36"
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={ids.email}>Email</Label>
              <Input
                id={ids.email}
                type="email"
                autoComplete="email"
                value={userEmail}
                onChange={(e) => setUserEmail(e.target.value)}
                placeholder="Your email (optional)"
              />
            </div>
          </div>
          <SheetFooter className="border-t sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={submitting}>
              {submitting && <Loader2 className="animate-spin" aria-hidden="true" />}
              {submitting ? 'Sending...' : 'Send Feedback'}
            </Button>
          </SheetFooter>
        </form>
      </SheetContent>
    </Sheet>
  );
}
