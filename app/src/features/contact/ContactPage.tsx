import { useId, useState, type FormEvent } from 'react';
import { Clock, Loader2, Mail, MapPin, MessageCircle, Send } from 'lucide-react';
import { toast } from '../../lib/toast';
import { CONTACT_ADDRESS, LIVE_CHAT_HOURS, SUPPORT_EMAIL } from '../../../../shared/content/site';
import {
  contactDefaults,
  SIMPLE_EMAIL_PATTERN,
  SUPPORT_MESSAGES,
  type ContactValues,
} from '../../../../shared/content/support';
import { PageHeading } from '../../components/layout/PageHeading';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Textarea } from '../../components/ui/textarea';
import { useSupportChat } from '../support-chat/SupportChatContext';
import { contactErrorMessage, sendContactMessage } from './api';

const INQUIRY_LABELS: Record<ContactValues['inquiryType'], string> = {
  general: 'General Inquiry',
  support: 'Technical Support',
  partnership: 'Partnership',
  billing: 'Billing',
};

function Required() {
  return (
    <span className="text-destructive" aria-hidden="true">
      *
    </span>
  );
}

export default function ContactPage() {
  const [values, setValues] = useState<ContactValues>(contactDefaults);
  const [sending, setSending] = useState(false);
  const { open: openChat } = useSupportChat();
  const id = useId();
  const set = <K extends keyof ContactValues>(key: K, value: ContactValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // Seed §5: the checks and their toasts, in this order.
    if (!values.name.trim() || !values.email.trim() || !values.message.trim()) {
      toast.error('Validation Error', { description: SUPPORT_MESSAGES.requiredFields });
      return;
    }
    if (!SIMPLE_EMAIL_PATTERN.test(values.email.trim())) {
      toast.error('Invalid Email', { description: SUPPORT_MESSAGES.invalidEmail });
      return;
    }
    setSending(true);
    try {
      await sendContactMessage(values);
      toast.success('Message Sent', { description: "Thank you for contacting us. We'll get back to you soon!" });
      setValues(contactDefaults);
    } catch (error) {
      console.error('Contact form failed', error);
      toast.error('Error', { description: contactErrorMessage(error) });
    } finally {
      setSending(false);
    }
  }

  return (
    <>
      <PageHeading
        eyebrow="Contact Us"
        title="Get in touch"
        description="Questions about Attesta, a partnership or your account? Send us a message and we will reply soon."
      />
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_22rem] lg:px-8">
        <Card>
          <CardHeader>
            <CardTitle className="text-xl">Send us a message</CardTitle>
            <CardDescription>
              Fields marked <Required /> are required.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Contact form">
              <div className="grid gap-5 sm:grid-cols-2">
                <div className="grid gap-2">
                  <Label htmlFor={`${id}-name`}>
                    Name <Required />
                  </Label>
                  <Input
                    id={`${id}-name`}
                    name="name"
                    autoComplete="name"
                    placeholder="Your name"
                    value={values.name}
                    onChange={(e) => set('name', e.target.value)}
                  />
                </div>
                <div className="grid gap-2">
                  <Label htmlFor={`${id}-email`}>
                    Email <Required />
                  </Label>
                  <Input
                    id={`${id}-email`}
                    name="email"
                    type="email"
                    autoComplete="email"
                    placeholder="you@example.com"
                    value={values.email}
                    onChange={(e) => set('email', e.target.value)}
                  />
                </div>
              </div>
              <div className="grid gap-2">
                <Label htmlFor={`${id}-subject`}>
                  Subject <Required />
                </Label>
                <Input
                  id={`${id}-subject`}
                  name="subject"
                  placeholder="How can we help?"
                  value={values.subject}
                  onChange={(e) => set('subject', e.target.value)}
                />
              </div>
              <div className="grid gap-5 sm:grid-cols-2">
                <div className="grid gap-2">
                  <Label htmlFor={`${id}-type`}>Inquiry Type</Label>
                  <Select
                    value={values.inquiryType}
                    onValueChange={(v) => set('inquiryType', v as ContactValues['inquiryType'])}
                  >
                    <SelectTrigger id={`${id}-type`} className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {Object.entries(INQUIRY_LABELS).map(([value, label]) => (
                        <SelectItem key={value} value={value}>
                          {label}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </div>
                <fieldset className="grid gap-2">
                  <legend className="mb-2 text-sm leading-none font-medium">Priority</legend>
                  <div className="flex h-9 items-center gap-6">
                    {(['normal', 'urgent'] as const).map((p) => (
                      <label key={p} className="flex cursor-pointer items-center gap-2 text-sm capitalize">
                        <input
                          type="radio"
                          name="priority"
                          value={p}
                          checked={values.priority === p}
                          onChange={() => set('priority', p)}
                          className="size-4 accent-primary"
                        />
                        {p === 'normal' ? 'Normal' : 'Urgent'}
                      </label>
                    ))}
                  </div>
                </fieldset>
              </div>
              <div className="grid gap-2">
                <Label htmlFor={`${id}-message`}>
                  Message <Required />
                </Label>
                <Textarea
                  id={`${id}-message`}
                  name="message"
                  placeholder="Tell us more..."
                  className="min-h-36"
                  value={values.message}
                  onChange={(e) => set('message', e.target.value)}
                />
              </div>
              <div>
                <Button type="submit" size="lg" disabled={sending} className="w-full sm:w-auto">
                  {sending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
                  {sending ? 'Sending...' : 'Send Message'}
                </Button>
              </div>
            </form>
          </CardContent>
        </Card>

        <aside className="flex flex-col gap-6" aria-label="Other ways to reach us">
          <Card>
            <CardHeader>
              <CardTitle>Contact Information</CardTitle>
            </CardHeader>
            <CardContent className="space-y-4 text-sm">
              <div className="flex gap-3">
                <Mail className="mt-0.5 size-5 text-primary" aria-hidden="true" />
                <div>
                  <p className="font-medium">Email</p>
                  <a href={`mailto:${SUPPORT_EMAIL}`} className="text-muted-foreground hover:text-foreground">
                    {SUPPORT_EMAIL}
                  </a>
                </div>
              </div>
              <div className="flex gap-3">
                <MapPin className="mt-0.5 size-5 text-primary" aria-hidden="true" />
                <div>
                  <p className="font-medium">Address</p>
                  <p className="text-muted-foreground">{CONTACT_ADDRESS}</p>
                </div>
              </div>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Live Chat Support</CardTitle>
              <CardDescription>Chat with our support assistant for quick answers.</CardDescription>
            </CardHeader>
            <CardContent className="space-y-4 text-sm">
              <p className="flex items-center gap-2 text-muted-foreground">
                <Clock className="size-4 text-primary" aria-hidden="true" />
                {LIVE_CHAT_HOURS}
              </p>
              <Button variant="outline" className="w-full" onClick={openChat}>
                <MessageCircle aria-hidden="true" /> Start Chat
              </Button>
            </CardContent>
          </Card>
        </aside>
      </div>
    </>
  );
}
